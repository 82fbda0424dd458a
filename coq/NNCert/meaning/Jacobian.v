(** What a rank certificate means, part 1 (plain Coq, no MathComp): the network functions
    as generic evaluators over any ring-like [arith] (Arith.v), in which RankMeaning.v defines
    the Jacobians; a parametricity lemma per building block (related inputs give related
    outputs, for any relation respecting [0], [1], [+], [*]), reused by ReverseModeRel.v for the
    kernel's reverse mode; the ReLU activation patterns recomputed exactly over Q; and the
    value parts of the kernel's forward-mode helpers read as these evaluators.
    The MLP evaluator [mlp_value] is the network of Net.v: [theta] flat, layer by layer,
    neuron by neuron, the incoming weights then the bias; [sigma] applied after every layer
    but the last. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net ResNet.
Import ListNotations.

(** * The network function, generic in the arithmetic *)

Section Eval.
Context {A : Type} (ar : arith A).

(** [sigma(a) = sum_k cs[k] a^k] by Horner. *)
Fixpoint horner_val (cs : list A) (a : A) : A :=
  match cs with
  | [] => zero ar
  | c :: cs' => add ar c (mul ar a (horner_val cs' a))
  end.

(** The layers of widths [rest] after a layer of width [prev], applied to [h]. *)
Fixpoint mlp_forward (bias : bool) (prev : nat) (rest : list nat) (acts : list (list A))
    (th h : list A) : list A :=
  match rest with
  | [] => h
  | d :: rest' =>
      let rowlen := (prev + (if bias then 1 else 0))%nat in
      let pre := layer_vals ar rowlen d th (with_bias bias h (one ar)) in
      match rest' with
      | [] => pre
      | _ :: _ =>
          mlp_forward bias d rest' (tl acts) (drop_n (d * rowlen) th)
            (map (horner_val (hd [] acts)) pre)
      end
  end.

(** [f_theta(x)]: the network of widths [widths] at the parameters [th] and the input [x]. *)
Definition mlp_value (widths : list nat) (acts : list (list A)) (bias : bool) (th x : list A)
  : list A :=
  match widths with
  | [] => []
  | d0 :: rest => mlp_forward bias d0 rest acts th x
  end.

End Eval.

Section EvalFamilies.
Context {A : Type} (ar : arith A).

(** Entrywise sum (to the shorter length). *)
Fixpoint vadd (a b : list A) : list A :=
  match a, b with
  | x :: a', y :: b' => add ar x y :: vadd a' b'
  | _, _ => []
  end.

(** The ResNet layers [h <- h + sigma_l(W_l h + b_l)] (times [V_l] when [outer]) applied to [h];
    the parameters of a layer: [W_l] row by row, each row's bias after it, then [V_l]. *)
Fixpoint resnet_forward (n : nat) (outer : bool) (acts : list (list A)) (th h : list A)
  : list A :=
  match acts with
  | [] => h
  | cs :: acts' =>
      let v := map (horner_val ar cs) (layer_vals ar (n + 1) n th (h ++ [one ar])) in
      let th1 := drop_n (n * (n + 1)) th in
      let out := if outer then layer_vals ar n n th1 v else v in
      let th2 := if outer then drop_n (n * n) th1 else th1 in
      resnet_forward n outer acts' th2 (vadd h out)
  end.

(** [x] where the pattern says active, [0] elsewhere (to the shorter length). *)
Fixpoint mask_pat (pat : list bool) (xs : list A) : list A :=
  match pat, xs with
  | b :: pat', x :: xs' => (if b then x else zero ar) :: mask_pat pat' xs'
  | _, _ => []
  end.

(** The affine layers of widths [rest] (MLP layout with biases), the hidden layers masked by
    the fixed patterns [pats]: a polynomial network. *)
Fixpoint relu_masked (prev : nat) (rest : list nat) (pats : list (list bool)) (th h : list A)
  : list A :=
  match rest with
  | [] => h
  | d :: rest' =>
      let pre := layer_vals ar (prev + 1) d th (h ++ [one ar]) in
      match rest' with
      | [] => pre
      | _ :: _ => relu_masked d rest' (tl pats) (drop_n (d * (prev + 1)) th) (mask_pat (hd [] pats) pre)
      end
  end.

(** The hidden pre-activations of the ReLU network [A_L o ReLU o ... o ReLU o A_1] at [h],
    [ReLU(a) = if pos a then a else 0]. *)
Fixpoint relu_pres (pos : A -> bool) (prev : nat) (rest : list nat) (th h : list A)
  : list (list A) :=
  match rest with
  | [] => []
  | d :: rest' =>
      let pre := layer_vals ar (prev + 1) d th (h ++ [one ar]) in
      match rest' with
      | [] => []
      | _ :: _ => pre :: relu_pres pos d rest' (drop_n (d * (prev + 1)) th) (mask_pat (map pos pre) pre)
      end
  end.

(** [vadd] stops at the shorter list. *)
Lemma vadd_length : forall a b, length (vadd a b) = Nat.min (length a) (length b).
Proof. induction a as [| x a IH]; intros [| y b]; simpl; try rewrite IH; reflexivity. Qed.

(** A layer of [d] rows has [d] values. *)
Lemma layer_vals_length : forall rowlen d th hb, length (layer_vals ar rowlen d th hb) = d.
Proof. intros rowlen d; induction d as [| d IH]; intros th hb; simpl; [|rewrite IH]; reflexivity. Qed.

(** The ResNet keeps the length of an input of at most [n] entries (width [n]). *)
Lemma resnet_forward_length n outer : forall acts th h, (length h <= n)%nat ->
  length (resnet_forward n outer acts th h) = length h.
Proof.
  induction acts as [| cs acts IH]; intros th h Hh; simpl; [reflexivity|].
  destruct outer; rewrite IH; rewrite vadd_length;
    rewrite ?layer_vals_length, ?map_length, ?layer_vals_length; lia.
Qed.

End EvalFamilies.

(** * Parametricity: evaluation respects any relation that respects the operations *)

Section Rel.
Context {A B : Type} (arA : arith A) (arB : arith B) (R : A -> B -> Prop).
Hypothesis R0 : R (zero arA) (zero arB).
Hypothesis R1 : R (one arA) (one arB).
Hypothesis Radd : forall a a' b b', R a b -> R a' b' -> R (add arA a a') (add arB b b').
Hypothesis Rmul : forall a a' b b', R a b -> R a' b' -> R (mul arA a a') (mul arB b b').

Lemma take_n_rel : forall n xs ys, Forall2 R xs ys -> Forall2 R (take_n n xs) (take_n n ys).
Proof.
  induction n as [| n IH]; intros xs ys H; [constructor|].
  destruct H; simpl; constructor; auto.
Qed.

Lemma drop_n_rel : forall n xs ys, Forall2 R xs ys -> Forall2 R (drop_n n xs) (drop_n n ys).
Proof.
  induction n as [| n IH]; intros xs ys H; [exact H|].
  destruct H; simpl; [constructor| auto].
Qed.

Lemma dot_rel : forall ws ws' xs xs', Forall2 R ws ws' -> Forall2 R xs xs' ->
  R (dot arA ws xs) (dot arB ws' xs').
Proof.
  intros ws ws' xs xs' H; revert xs xs'.
  induction H as [| w w' ws ws' Hw Hws IH]; intros xs xs' Hx; [exact R0|].
  destruct Hx; simpl; [exact R0|]. apply Radd; [apply Rmul|apply IH]; assumption.
Qed.

Lemma layer_vals_rel : forall rowlen d th th' hb hb', Forall2 R th th' -> Forall2 R hb hb' ->
  Forall2 R (layer_vals arA rowlen d th hb) (layer_vals arB rowlen d th' hb').
Proof.
  intros rowlen d; induction d as [| d IH]; intros th th' hb hb' Ht Hh; simpl; constructor.
  - apply dot_rel; [apply take_n_rel|]; assumption.
  - apply IH; [apply drop_n_rel|]; assumption.
Qed.

Lemma with_bias_rel : forall b h h' v v', Forall2 R h h' -> R v v' ->
  Forall2 R (with_bias b h v) (with_bias b h' v').
Proof.
  intros [|] h h' v v' Hh Hv; simpl; [apply Forall2_app; [exact Hh| constructor; auto]| exact Hh].
Qed.

Lemma hd_rel : forall (acts : list (list A)) acts', Forall2 (Forall2 R) acts acts' ->
  Forall2 R (hd [] acts) (hd [] acts').
Proof. intros acts acts' H; destruct H; simpl; [constructor| assumption]. Qed.

Lemma tl_rel : forall (acts : list (list A)) acts', Forall2 (Forall2 R) acts acts' ->
  Forall2 (Forall2 R) (tl acts) (tl acts').
Proof. intros acts acts' H; destruct H; simpl; [constructor| assumption]. Qed.

Lemma nth_rel : forall k xs ys d d', Forall2 R xs ys -> R d d' -> R (nth k xs d) (nth k ys d').
Proof.
  induction k as [| k IH]; intros xs ys d d' H Hd; destruct H; simpl; auto.
Qed.

Lemma app_one_rel : forall h h', Forall2 R h h' -> Forall2 R (h ++ [one arA]) (h' ++ [one arB]).
Proof. intros h h' H. apply Forall2_app; [exact H| constructor; auto]. Qed.

Lemma mask_pat_rel : forall pat xs xs', Forall2 R xs xs' ->
  Forall2 R (mask_pat arA pat xs) (mask_pat arB pat xs').
Proof.
  induction pat as [| b pat IH]; intros xs xs' H; [constructor|].
  destruct H; simpl; constructor; [destruct b; auto| auto].
Qed.

Lemma map_pos_rel : forall (posA : A -> bool) (posB : B -> bool) xs xs',
  (forall a b, R a b -> posA a = posB b) -> Forall2 R xs xs' -> map posA xs = map posB xs'.
Proof. intros posA posB xs xs' Hp H; induction H; simpl; [reflexivity| f_equal; auto]. Qed.

Lemma relu_pres_rel : forall (posA : A -> bool) (posB : B -> bool) rest prev th th' h h',
  (forall a b, R a b -> posA a = posB b) -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 (Forall2 R) (relu_pres arA posA prev rest th h) (relu_pres arB posB prev rest th' h').
Proof.
  intros posA posB rest; induction rest as [| d rest IH]; intros prev th th' h h' Hp Ht Hh;
    simpl; [constructor|].
  assert (Hpre : Forall2 R (layer_vals arA (prev + 1) d th (h ++ [one arA]))
                           (layer_vals arB (prev + 1) d th' (h' ++ [one arB]))).
  { apply layer_vals_rel; [exact Ht| apply app_one_rel; exact Hh]. }
  destruct rest as [| d' rest']; [constructor|].
  constructor; [exact Hpre|].
  rewrite (map_pos_rel posA posB _ _ Hp Hpre).
  apply IH; [exact Hp| apply drop_n_rel; exact Ht| apply mask_pat_rel; exact Hpre].
Qed.

(** [sigma(a)] by Horner respects the relation. *)
Lemma horner_val_rel : forall cs cs' a a', Forall2 R cs cs' -> R a a' ->
  R (horner_val arA cs a) (horner_val arB cs' a').
Proof.
  intros cs cs' a a' H Ha; induction H as [| c c' l l' Hc Hl IH]; simpl; [exact R0|].
  apply Radd; [exact Hc| apply Rmul; assumption].
Qed.

Lemma map_horner_rel : forall cs cs' hs hs', Forall2 R cs cs' -> Forall2 R hs hs' ->
  Forall2 R (map (horner_val arA cs) hs) (map (horner_val arB cs') hs').
Proof.
  intros cs cs' hs hs' Hc H; induction H; simpl; constructor;
    [apply horner_val_rel|]; assumption.
Qed.

Lemma vadd_rel : forall a a' b b', Forall2 R a a' -> Forall2 R b b' ->
  Forall2 R (vadd arA a b) (vadd arB a' b').
Proof.
  intros a a' b b' H; revert b b'.
  induction H as [| x x' a a' Hx Ha IH]; intros b b' Hb; simpl; [constructor|].
  destruct Hb as [| y y' b b' Hy Hb]; simpl; [constructor|].
  constructor; [apply Radd| apply IH]; assumption.
Qed.

(** The whole ResNet respects the relation (every family's theorem over another carrier:
    the kernel's pairs, Coq's [Q], the term algebra of ResNet.v). *)
Lemma resnet_forward_rel n outer : forall acts acts' th th' h h',
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (resnet_forward arA n outer acts th h) (resnet_forward arB n outer acts' th' h').
Proof.
  intros acts acts' th th' h h' Ha; revert th th' h h'.
  induction Ha as [| cs cs' acts acts' Hc Ha IH]; intros th th' h h' Ht Hh; simpl; [exact Hh|].
  assert (Hv : Forall2 R (map (horner_val arA cs) (layer_vals arA (n + 1) n th (h ++ [one arA])))
                 (map (horner_val arB cs') (layer_vals arB (n + 1) n th' (h' ++ [one arB])))).
  { apply map_horner_rel; [exact Hc|].
    apply layer_vals_rel; [exact Ht| apply app_one_rel; exact Hh]. }
  pose proof (drop_n_rel (n * (n + 1)) th th' Ht) as Ht1.
  destruct outer.
  - apply IH; [apply drop_n_rel; exact Ht1|].
    apply vadd_rel; [exact Hh| apply layer_vals_rel; assumption].
  - apply IH; [exact Ht1| apply vadd_rel; assumption].
Qed.

End Rel.

(** * ReLU networks *)

(** A positive rational (positive denominator). *)
Definition qpos (a : Z * Z) : bool := (0 <? fst a)%Z.

(** The activation patterns of the hidden layers at [z], recomputed exactly over Q. *)
Definition relu_pattern_q (widths : list nat) (th z : list (Z * Z)) : list (list bool) :=
  map (map qpos) (relu_pres arith_q qpos (first_width widths) (tl widths) th z).

(** No hidden pre-activation at [z] is zero. *)
Definition relu_nonzero_q (widths : list nat) (th z : list (Z * Z)) : bool :=
  forallb (forallb (fun a => negb (Z.eqb (fst a) 0)))
    (relu_pres arith_q qpos (first_width widths) (tl widths) th z).

(** * The kernel's forward mode, read as plain evaluation *)

(** The value parts of the kernel's dual-number helpers ([horner_dual], [act_dual], Net.v;
    [vec_add], ResNet.v) are the evaluators above (used by Backprop.v and BackpropResNet.v). *)
Section SameNet.
Context {A : Type} (ar : arith A).

(** [fst (horner_dual cs a da) = sum_i cs_i a^i]. *)
Lemma horner_dual_fst : forall cs a da, fst (horner_dual ar cs a da) = horner_val ar cs a.
Proof.
  induction cs as [| c cs IH]; intros a da; simpl; [reflexivity|].
  rewrite <- (IH a da). destruct (horner_dual ar cs a da); reflexivity.
Qed.

(** [act_dual] applies [sigma] to every entry and keeps one tangent per entry. *)
Lemma act_dual_spec : forall cs hs dhs, length hs = length dhs ->
  fst (act_dual ar cs hs dhs) = map (horner_val ar cs) hs /\
  length (snd (act_dual ar cs hs dhs)) = length hs.
Proof.
  intros cs; induction hs as [| h hs IH]; intros [| dh dhs] H; simpl in *; try discriminate;
    [split; reflexivity|].
  injection H as H. destruct (IH dhs H) as [H1 H2].
  rewrite <- (horner_dual_fst cs h dh).
  destruct (horner_dual ar cs h dh); destruct (act_dual ar cs hs dhs); simpl in *.
  split; [rewrite H1; reflexivity| rewrite H2; reflexivity].
Qed.

(** The two pointwise sums agree. *)
Lemma vadd_vec_add : forall a b, vadd ar a b = vec_add ar a b.
Proof. induction a as [| x a IH]; intros [| y b]; simpl; try rewrite IH; reflexivity. Qed.

(** The value part of one affine layer in forward mode is [layer_vals]. *)
Lemma layer_dual_fst : forall rowlen nrows th dth hb dhb,
  fst (layer_dual ar rowlen nrows th dth hb dhb) = layer_vals ar rowlen nrows th hb.
Proof.
  intros rowlen nrows; induction nrows as [| k IH]; intros th dth hb dhb; simpl; [reflexivity|].
  rewrite <- (IH (drop_n rowlen th) (drop_n rowlen dth) hb dhb).
  destruct (layer_dual ar rowlen k (drop_n rowlen th) (drop_n rowlen dth) hb dhb); reflexivity.
Qed.

(** ... with one value and one tangent per row. *)
Lemma layer_dual_len : forall rowlen nrows th dth hb dhb,
  length (fst (layer_dual ar rowlen nrows th dth hb dhb)) = nrows /\
  length (snd (layer_dual ar rowlen nrows th dth hb dhb)) = nrows.
Proof.
  intros rowlen nrows; induction nrows as [| k IH]; intros th dth hb dhb; simpl;
    [split; reflexivity|].
  destruct (IH (drop_n rowlen th) (drop_n rowlen dth) hb dhb) as [H1 H2].
  destruct (layer_dual ar rowlen k (drop_n rowlen th) (drop_n rowlen dth) hb dhb) as [a b].
  simpl in *. rewrite H1, H2. split; reflexivity.
Qed.

(** [resnet_dual]'s value is [resnet_forward]. *)
Lemma resnet_dual_fst n outer : forall acts th dth h dh,
  fst (resnet_dual ar n outer acts th dth h dh) = resnet_forward ar n outer acts th h.
Proof.
  induction acts as [| cs acts IH]; intros th dth h dh; simpl; [reflexivity|].
  pose proof (layer_dual_fst (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar])) as Hpre.
  pose proof (layer_dual_len (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar])) as [Hl Hdl].
  destruct (layer_dual ar (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar])) as [pre dpre].
  simpl in Hpre, Hl, Hdl. rewrite <- Hpre.
  destruct (act_dual_spec cs pre dpre (eq_trans Hl (eq_sym Hdl))) as [Hv _].
  destruct (act_dual ar cs pre dpre) as [v dv]. simpl in Hv. rewrite <- Hv.
  destruct outer.
  - pose proof (layer_dual_fst n n (drop_n (n * (n + 1)) th) (drop_n (n * (n + 1)) dth) v dv)
      as Hw.
    destruct (layer_dual ar n n (drop_n (n * (n + 1)) th) (drop_n (n * (n + 1)) dth) v dv)
      as [w dw].
    simpl in Hw. rewrite <- Hw, IH, (vadd_vec_add h w). reflexivity.
  - rewrite IH, (vadd_vec_add h v). reflexivity.
Qed.

End SameNet.
