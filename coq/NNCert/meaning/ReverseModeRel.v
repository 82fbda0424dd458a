(** Parametricity of the kernel's reverse mode (plain Coq, no MathComp), and the ReLU
    activation patterns of the kernel as those of the meaning file.
    Part 1 (Section [Rel]): for any relation [R] between two arithmetics that relates [0] to
    [0], [1] to [1] and respects [+] and [*], related inputs give related outputs of every
    function of the reverse mode: [net_back]/[net_row] (Net.v), [resnet_back]/[resnet_row]
    (ResNet.v) and [relu_back] (ReLU.v). Instantiated at the relation "reduces mod p to"
    between rationals and primitive integers, this says that the rows the kernel computes
    mod p are the reductions of the exact rows.
    Part 2: the activation patterns and the nonzero test of the kernel ([batch_patterns],
    [batch_nonzero], ReLU.v, exact evaluation [relu_eval]) are those of Jacobian.v
    ([relu_pattern_q], [relu_nonzero_q], from [relu_pres]).
    The lemmas of Jacobian.v's [Section Rel] are reused, never duplicated. *)
From Coq Require Import ZArith List Bool.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian.
Import ListNotations.

(** * Parametricity of reverse mode *)

Section Rel.
Context {A B : Type} (arA : arith A) (arB : arith B) (R : A -> B -> Prop).
Hypothesis R0 : R (zero arA) (zero arB).
Hypothesis R1 : R (one arA) (one arB).
Hypothesis Radd : forall a a' b b', R a b -> R a' b' -> R (add arA a a') (add arB b b').
Hypothesis Rmul : forall a a' b b', R a b -> R a' b' -> R (mul arA a a') (mul arB b b').

(* Jacobian.v's lemmas at this section's arithmetics and relation. *)
Let dotR := @dot_rel A B arA arB R R0 Radd Rmul.
Let layer_valsR := @layer_vals_rel A B arA arB R R0 Radd Rmul.
Let app_oneR := @app_one_rel A B arA arB R R1.

(** The zero vector and the unit vectors of the two arithmetics are related. *)
Lemma zeros_rel : forall n, Forall2 R (zeros arA n) (zeros arB n).
Proof. induction n as [| n IH]; simpl; constructor; auto. Qed.

Lemma unit_vec_rel : forall n c, Forall2 R (unit_vec arA n c) (unit_vec arB n c).
Proof.
  induction n as [| n IH]; intros c; simpl; [constructor|].
  destruct c; constructor; auto using zeros_rel.
Qed.

(** The accumulation [z * r + acc] and its iteration [acc + W^T g] ([back_rows]) respect
    [R]. *)
Lemma add_scaled_row_rel : forall z z' r r' acc acc', R z z' -> Forall2 R r r' ->
  Forall2 R acc acc' ->
  Forall2 R (add_scaled_row arA z r acc) (add_scaled_row arB z' r' acc').
Proof.
  intros z z' r r' acc acc' Hz H; revert acc acc'.
  induction H as [| x x' r r' Hx Hr IH]; intros acc acc' Ha; simpl; [constructor|].
  destruct Ha; simpl; constructor; auto.
Qed.

Lemma back_rows_rel : forall rowlen g g' th th' acc acc', Forall2 R g g' -> Forall2 R th th' ->
  Forall2 R acc acc' -> Forall2 R (back_rows arA rowlen g th acc) (back_rows arB rowlen g' th' acc').
Proof.
  intros rowlen g g' th th' acc acc' H; revert th th' acc acc'.
  induction H as [| gi gi' g g' Hgi Hg IH]; intros th th' acc acc' Ht Ha; simpl; [exact Ha|].
  apply IH; [apply drop_n_rel; exact Ht|].
  apply add_scaled_row_rel; [exact Hgi| apply take_n_rel; exact Ht| exact Ha].
Qed.

(** The weight gradients [g[i] * hb] ([scale_each]) and entrywise products ([hadamard])
    respect [R]. *)
Lemma scale_each_rel : forall g g' hb hb', Forall2 R g g' -> Forall2 R hb hb' ->
  Forall2 R (scale_each arA g hb) (scale_each arB g' hb').
Proof.
  intros g g' hb hb' H Hh; induction H as [| gi gi' g g' Hgi Hg IH]; simpl; [constructor|].
  apply Forall2_app; [| exact IH].
  clear IH; induction Hh; simpl; constructor; auto.
Qed.

Lemma hadamard_rel : forall xs xs' ys ys', Forall2 R xs xs' -> Forall2 R ys ys' ->
  Forall2 R (hadamard arA xs ys) (hadamard arB xs' ys').
Proof.
  intros xs xs' ys ys' H; revert ys ys'.
  induction H; intros ys ys' Hy; simpl; [constructor|].
  destruct Hy; simpl; constructor; auto.
Qed.

(** Horner on dual numbers ([horner_dual]), the activation on a vector of dual numbers
    ([act_dual]) and on [h + 1 eps] ([act_vd]) respect [R] in both components. *)
Lemma horner_dual_rel : forall cs cs' a a' da da', Forall2 R cs cs' -> R a a' -> R da da' ->
  R (fst (horner_dual arA cs a da)) (fst (horner_dual arB cs' a' da')) /\
  R (snd (horner_dual arA cs a da)) (snd (horner_dual arB cs' a' da')).
Proof.
  intros cs cs' a a' da da' H Ha Hda.
  induction H as [| c c' cs cs' Hc Hcs IH]; simpl; [split; exact R0|].
  destruct IH as [H1 H2].
  destruct (horner_dual arA cs a da) as [s ds]; destruct (horner_dual arB cs' a' da') as [s' ds'].
  simpl in *. split; auto.
Qed.

Lemma act_dual_rel : forall cs cs' hs hs' dhs dhs', Forall2 R cs cs' -> Forall2 R hs hs' ->
  Forall2 R dhs dhs' ->
  Forall2 R (fst (act_dual arA cs hs dhs)) (fst (act_dual arB cs' hs' dhs')) /\
  Forall2 R (snd (act_dual arA cs hs dhs)) (snd (act_dual arB cs' hs' dhs')).
Proof.
  intros cs cs' hs hs' dhs dhs' Hc H; revert dhs dhs'.
  induction H as [| h h' hs hs' Hh Hhs IH]; intros dhs dhs' Hd; simpl; [split; constructor|].
  destruct Hd as [| dh dh' dhs dhs' Hdh Hdhs]; simpl; [split; constructor|].
  destruct (horner_dual_rel cs cs' h h' dh dh' Hc Hh Hdh) as [K1 K2].
  destruct (IH dhs dhs' Hdhs) as [L1 L2].
  destruct (horner_dual arA cs h dh); destruct (horner_dual arB cs' h' dh').
  destruct (act_dual arA cs hs dhs); destruct (act_dual arB cs' hs' dhs').
  simpl in *. split; constructor; assumption.
Qed.

Lemma act_vd_rel : forall cs cs' hs hs', Forall2 R cs cs' -> Forall2 R hs hs' ->
  Forall2 R (fst (act_vd arA cs hs)) (fst (act_vd arB cs' hs')) /\
  Forall2 R (snd (act_vd arA cs hs)) (snd (act_vd arB cs' hs')).
Proof.
  intros cs cs' hs hs' Hc Hh. unfold act_vd. apply act_dual_rel; [exact Hc| exact Hh|].
  clear Hc; induction Hh; simpl; constructor; auto.
Qed.

(** MLP reverse mode: both components of [net_back] (the parameter gradient and the input
    gradient of [f_k]) and the Jacobian row [net_row] respect [R]. *)
Lemma net_back_rel : forall bias rest prev acts acts' th th' h h' k,
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (fst (net_back arA bias prev rest acts th h k))
            (fst (net_back arB bias prev rest acts' th' h' k)) /\
  Forall2 R (snd (net_back arA bias prev rest acts th h k))
            (snd (net_back arB bias prev rest acts' th' h' k)).
Proof.
  intros bias rest; induction rest as [| d rest IH]; intros prev acts acts' th th' h h' k Ha Ht Hh;
    simpl; [split; constructor|].
  assert (Hhb : Forall2 R (with_bias bias h (one arA)) (with_bias bias h' (one arB))).
  { apply with_bias_rel; assumption. }
  destruct rest as [| d' rest'].
  - simpl. split.
    + apply scale_each_rel; [apply unit_vec_rel| exact Hhb].
    + apply take_n_rel, back_rows_rel; [apply unit_vec_rel| exact Ht| apply zeros_rel].
  - destruct (act_vd_rel (hd [] acts) (hd [] acts')
                (layer_vals arA (prev + (if bias then 1 else 0)) d th (with_bias bias h (one arA)))
                (layer_vals arB (prev + (if bias then 1 else 0)) d th' (with_bias bias h' (one arB))))
      as [Hv Hdv]; [apply hd_rel; exact Ha| apply layer_valsR; assumption|].
    destruct (act_vd arA (hd [] acts) _) as [v dv];
      destruct (act_vd arB (hd [] acts') _) as [v' dv']; simpl in Hv, Hdv.
    destruct (IH d (tl acts) (tl acts') (drop_n (d * (prev + (if bias then 1 else 0))) th)
                (drop_n (d * (prev + (if bias then 1 else 0))) th') v v' k)
      as [G1 G2]; [apply tl_rel; exact Ha| apply drop_n_rel; exact Ht| exact Hv|].
    destruct (net_back arA bias d (d' :: rest') (tl acts) _ v k) as [grest gh];
      destruct (net_back arB bias d (d' :: rest') (tl acts') _ v' k) as [grest' gh'];
      simpl in G1, G2.
    assert (Hg : Forall2 R (hadamard arA dv gh) (hadamard arB dv' gh')).
    { apply hadamard_rel; assumption. }
    simpl. split.
    + apply Forall2_app; [apply scale_each_rel; assumption| exact G1].
    + apply take_n_rel, back_rows_rel; [exact Hg| exact Ht| apply zeros_rel].
Qed.

Lemma net_row_rel : forall widths acts acts' bias th th' x x' k,
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R x x' ->
  Forall2 R (net_row arA widths acts bias th x k) (net_row arB widths acts' bias th' x' k).
Proof.
  intros [| d0 rest] acts acts' bias th th' x x' k Ha Ht Hx; simpl; [constructor|].
  apply net_back_rel; assumption.
Qed.

(** ResNet reverse mode: the entrywise sum [vec_add], both components of [resnet_back] and
    the Jacobian row [resnet_row] respect [R]. *)
Lemma vec_add_rel : forall a a' b b', Forall2 R a a' -> Forall2 R b b' ->
  Forall2 R (vec_add arA a b) (vec_add arB a' b').
Proof.
  intros a a' b b' H; revert b b'; induction H; intros b b' Hb; simpl; [constructor|].
  destruct Hb; simpl; constructor; auto.
Qed.

Lemma resnet_back_rel : forall n outer acts acts' th th' h h' k,
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (fst (resnet_back arA n outer acts th h k))
            (fst (resnet_back arB n outer acts' th' h' k)) /\
  Forall2 R (snd (resnet_back arA n outer acts th h k))
            (snd (resnet_back arB n outer acts' th' h' k)).
Proof.
  intros n outer acts acts' th th' h h' k Ha; revert th th' h h'.
  induction Ha as [| cs cs' acts acts' Hc Ha IH]; intros th th' h h' Ht Hh; simpl;
    [split; [constructor| apply unit_vec_rel]|].
  assert (Hhb : Forall2 R (h ++ [one arA]) (h' ++ [one arB])) by (apply app_oneR; exact Hh).
  destruct (act_vd_rel cs cs' (layer_vals arA (n + 1) n th (h ++ [one arA]))
              (layer_vals arB (n + 1) n th' (h' ++ [one arB])))
    as [Hv Hdv]; [exact Hc| apply layer_valsR; assumption|].
  destruct (act_vd arA cs _) as [v dv]; destruct (act_vd arB cs' _) as [v' dv'];
    simpl in Hv, Hdv.
  assert (Hthv : Forall2 R (drop_n (n * (n + 1)) th) (drop_n (n * (n + 1)) th'))
    by (apply drop_n_rel; exact Ht).
  assert (Hout : Forall2 R (if outer then layer_vals arA n n (drop_n (n * (n + 1)) th) v else v)
                           (if outer then layer_vals arB n n (drop_n (n * (n + 1)) th') v' else v')).
  { destruct outer; [apply layer_valsR; assumption| exact Hv]. }
  destruct (IH (drop_n (layer_size n outer) th) (drop_n (layer_size n outer) th')
              (vec_add arA h (if outer then layer_vals arA n n (drop_n (n * (n + 1)) th) v else v))
              (vec_add arB h' (if outer then layer_vals arB n n (drop_n (n * (n + 1)) th') v' else v')))
    as [G1 G2]; [apply drop_n_rel; exact Ht| apply vec_add_rel; assumption|].
  destruct (resnet_back arA n outer acts _ _ k) as [grest gh];
    destruct (resnet_back arB n outer acts' _ _ k) as [grest' gh']; simpl in G1, G2.
  assert (Hgv : Forall2 R
    (if outer then take_n n (back_rows arA n gh (drop_n (n * (n + 1)) th) (zeros arA n)) else gh)
    (if outer then take_n n (back_rows arB n gh' (drop_n (n * (n + 1)) th') (zeros arB n)) else gh')).
  { destruct outer; [apply take_n_rel, back_rows_rel; [exact G2| exact Hthv| apply zeros_rel]|
                     exact G2]. }
  assert (Hgpre : Forall2 R (hadamard arA dv _) (hadamard arB dv' _))
    by (apply hadamard_rel; [exact Hdv| exact Hgv]).
  simpl. split.
  - apply Forall2_app; [| exact G1].
    destruct outer; [apply Forall2_app|]; apply scale_each_rel; assumption.
  - apply vec_add_rel; [exact G2|].
    apply take_n_rel, back_rows_rel; [exact Hgpre| exact Ht| apply zeros_rel].
Qed.

Lemma resnet_row_rel : forall n outer acts acts' th th' x x' k,
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R x x' ->
  Forall2 R (resnet_row arA n outer acts th x k) (resnet_row arB n outer acts' th' x' k).
Proof. intros. apply resnet_back_rel; assumption. Qed.

(** ReLU reverse mode with the pattern fixed: the masking [mask_vals], one layer's
    pull-back [back_layer], both components of [relu_back], and its parameter gradient (the
    Jacobian row) respect [R]. *)
Lemma mask_vals_rel : forall pat xs xs', Forall2 R xs xs' ->
  Forall2 R (mask_vals arA pat xs) (mask_vals arB pat xs').
Proof.
  induction pat as [| b pat IH]; intros xs xs' H; simpl; [constructor|].
  destruct H; simpl; constructor; [destruct b; auto| auto].
Qed.

Lemma back_layer_rel : forall prev hb hb' g g' th th', Forall2 R hb hb' -> Forall2 R g g' ->
  Forall2 R th th' ->
  Forall2 R (fst (back_layer arA prev hb g th)) (fst (back_layer arB prev hb' g' th')) /\
  Forall2 R (snd (back_layer arA prev hb g th)) (snd (back_layer arB prev hb' g' th')).
Proof.
  intros prev hb hb' g g' th th' Hh Hg Ht; simpl; split.
  - apply scale_each_rel; assumption.
  - apply take_n_rel, back_rows_rel; [exact Hg| exact Ht| apply zeros_rel].
Qed.

Lemma relu_back_rel_pair : forall rest prev pats th th' h h' k,
  Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (fst (relu_back arA prev rest pats th h k))
            (fst (relu_back arB prev rest pats th' h' k)) /\
  Forall2 R (snd (relu_back arA prev rest pats th h k))
            (snd (relu_back arB prev rest pats th' h' k)).
Proof.
  induction rest as [| d rest IH]; intros prev pats th th' h h' k Ht Hh; simpl;
    [split; constructor|].
  assert (Hhb : Forall2 R (h ++ [one arA]) (h' ++ [one arB])) by (apply app_oneR; exact Hh).
  destruct rest as [| d' rest'].
  - apply back_layer_rel; [exact Hhb| apply unit_vec_rel| exact Ht].
  - destruct (IH d (tl pats) (drop_n (d * (prev + 1)) th) (drop_n (d * (prev + 1)) th')
                (mask_vals arA (hd [] pats) (layer_vals arA (prev + 1) d th (h ++ [one arA])))
                (mask_vals arB (hd [] pats) (layer_vals arB (prev + 1) d th' (h' ++ [one arB]))) k)
      as [G1 G2]; [apply drop_n_rel; exact Ht| apply mask_vals_rel, layer_valsR; assumption|].
    destruct (relu_back arA d (d' :: rest') (tl pats) _ _ k) as [grest gh];
      destruct (relu_back arB d (d' :: rest') (tl pats) _ _ k) as [grest' gh'];
      simpl in G1, G2.
    assert (Hm : Forall2 R (mask_vals arA (hd [] pats) gh) (mask_vals arB (hd [] pats) gh'))
      by (apply mask_vals_rel; exact G2).
    simpl. split.
    + apply Forall2_app; [apply scale_each_rel; assumption| exact G1].
    + apply take_n_rel, back_rows_rel; [exact Hm| exact Ht| apply zeros_rel].
Qed.

Lemma relu_back_rel : forall rest prev pats th th' h h' k,
  Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (fst (relu_back arA prev rest pats th h k))
            (fst (relu_back arB prev rest pats th' h' k)).
Proof. intros. apply relu_back_rel_pair; assumption. Qed.

End Rel.

(** * The kernel's ReLU patterns are those of the meaning file *)

(** The kernel's masking [mask_vals] (ReLU.v) is Jacobian.v's [mask_pat]. *)
Lemma mask_vals_mask_pat : forall {A : Type} (ar : arith A) pat xs,
  mask_vals ar pat xs = mask_pat ar pat xs.
Proof.
  (* The two fixpoints have the same body, so they are convertible. *)
  intros A ar pat xs; reflexivity.
Qed.

(** Exact ReLU [relu_q a = if 0 < a then a else 0] on a vector is the mask of its own
    positivity pattern. *)
Lemma relu_vec_q_mask : forall xs, relu_vec_q xs = mask_pat arith_q (map qpos xs) xs.
Proof.
  induction xs as [| x xs IH]; simpl; [reflexivity|].
  rewrite IH; reflexivity.
Qed.

(** The hidden pre-activations of the kernel's exact evaluation [relu_forward] are Jacobian.v's
    [relu_pres] over [arith_q] with positivity [qpos]. *)
Lemma relu_forward_pres : forall rest prev th h,
  snd (relu_forward prev rest th h) = relu_pres arith_q qpos prev rest th h.
Proof.
  induction rest as [| d rest IH]; intros prev th h; simpl; [reflexivity|].
  destruct rest as [| d' rest']; [reflexivity|].
  rewrite <- relu_vec_q_mask, <- IH.
  destruct (relu_forward d (d' :: rest') _ _); reflexivity.
Qed.

(** The pre-activations of [relu_eval widths th x] are those of [relu_pattern_q] and
    [relu_nonzero_q]. *)
Lemma relu_eval_pres : forall widths th x,
  snd (relu_eval widths th x) = relu_pres arith_q qpos (first_width widths) (tl widths) th x.
Proof.
  intros [| d0 rest] th x; simpl; [reflexivity| apply relu_forward_pres].
Qed.

(** The kernel's pattern at a point is [relu_pattern_q]. *)
Lemma pattern_of_relu_eval : forall widths th x,
  pattern_of (snd (relu_eval widths th x)) = relu_pattern_q widths th x.
Proof. intros. unfold relu_pattern_q. rewrite <- relu_eval_pres. reflexivity. Qed.

(** Pattern [s] of the kernel's [batch_patterns] is [relu_pattern_q] at batch point [s]. *)
Lemma batch_patterns_nth : forall widths th batch s, (s < length batch)%nat ->
  nth s (batch_patterns widths th batch) [] = relu_pattern_q widths th (nth_row batch s).
Proof.
  intros widths th batch; induction batch as [| x batch IH]; intros s Hs;
    [inversion Hs|].
  destruct s as [| s]; simpl; [apply pattern_of_relu_eval|].
  apply IH. simpl in Hs. apply Nat.succ_lt_mono. exact Hs.
Qed.

(** The kernel's test that no batch point has a zero hidden pre-activation is
    [relu_nonzero_q] at every batch point. *)
Lemma batch_nonzero_eq : forall widths th batch,
  batch_nonzero widths th batch = forallb (relu_nonzero_q widths th) batch.
Proof.
  intros widths th batch; induction batch as [| x batch IH]; simpl; [reflexivity|].
  rewrite IH. unfold relu_nonzero_q, pres_nonzero, all_nonzero_q.
  rewrite relu_eval_pres. reflexivity.
Qed.

Lemma batch_nonzero_q : forall widths th batch,
  batch_nonzero widths th batch = true -> forallb (relu_nonzero_q widths th) batch = true.
Proof. intros widths th batch H. rewrite <- batch_nonzero_eq. exact H. Qed.
