(** What a rank certificate means, part 1 (plain Coq, no MathComp): the network functions
    as generic evaluators over any ring-like [arith] (Arith.v), a parametricity lemma (related
    inputs give related outputs, for any relation respecting [0], [1], [+], [*]), and a
    second, simply verified lower-bound check used only to derive the mathematical theorem of
    RankMeaning.v.
    The kernel's fast check ([check_rank_lower], reverse mode and fraction-free elimination
    on primitive integers) stays what every certificate computes first. The check here is a
    Coq-only proof device, so it has no Python or Lean twin: it evaluates the minor of the
    Jacobian by forward mode over the dual numbers [Z/p[eps]/(eps^2)] on [Z] (no primitive
    integers, hence no axioms), computes an inverse by Gauss-Jordan elimination (untrusted:
    nothing is proved about it) and checks [M * V = I (mod p)] entry by entry.
    The MLP evaluator [mlp_value] is the network of Net.v: [theta] flat, layer by layer,
    neuron by neuron, the incoming weights then the bias; [sigma] applied after every layer
    but the last. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU.
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

Lemma horner_val_rel : forall cs cs' a a', Forall2 R cs cs' -> R a a' ->
  R (horner_val arA cs a) (horner_val arB cs' a').
Proof.
  intros cs cs' a a' H Ha; induction H; simpl; [exact R0|].
  apply Radd; [|apply Rmul]; assumption.
Qed.

Lemma map_rel : forall (f : A -> A) (g : B -> B) xs ys,
  (forall a b, R a b -> R (f a) (g b)) -> Forall2 R xs ys -> Forall2 R (map f xs) (map g ys).
Proof. intros f g xs ys Hf H; induction H; simpl; constructor; auto. Qed.

Lemma hd_rel : forall (acts : list (list A)) acts', Forall2 (Forall2 R) acts acts' ->
  Forall2 R (hd [] acts) (hd [] acts').
Proof. intros acts acts' H; destruct H; simpl; [constructor| assumption]. Qed.

Lemma tl_rel : forall (acts : list (list A)) acts', Forall2 (Forall2 R) acts acts' ->
  Forall2 (Forall2 R) (tl acts) (tl acts').
Proof. intros acts acts' H; destruct H; simpl; [constructor| assumption]. Qed.

Lemma mlp_forward_rel : forall bias rest prev acts acts' th th' h h',
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (mlp_forward arA bias prev rest acts th h) (mlp_forward arB bias prev rest acts' th' h').
Proof.
  intros bias rest; induction rest as [| d rest IH]; intros prev acts acts' th th' h h' Ha Ht Hh;
    simpl; [exact Hh|].
  assert (Hpre : Forall2 R
    (layer_vals arA (prev + (if bias then 1 else 0)) d th (with_bias bias h (one arA)))
    (layer_vals arB (prev + (if bias then 1 else 0)) d th' (with_bias bias h' (one arB)))).
  { apply layer_vals_rel; [exact Ht| apply with_bias_rel; assumption]. }
  destruct rest as [| d' rest']; [exact Hpre|].
  apply IH; [apply tl_rel; exact Ha| apply drop_n_rel; exact Ht|].
  apply map_rel; [| exact Hpre]. intros a b Hab. apply horner_val_rel; [apply hd_rel|]; assumption.
Qed.

Lemma mlp_value_rel : forall widths acts acts' bias th th' x x',
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R x x' ->
  Forall2 R (mlp_value arA widths acts bias th x) (mlp_value arB widths acts' bias th' x').
Proof.
  intros [| d0 rest] acts acts' bias th th' x x' Ha Ht Hx; simpl; [constructor|].
  apply mlp_forward_rel; assumption.
Qed.

Lemma nth_rel : forall k xs ys d d', Forall2 R xs ys -> R d d' -> R (nth k xs d) (nth k ys d').
Proof.
  induction k as [| k IH]; intros xs ys d d' H Hd; destruct H; simpl; auto.
Qed.

Lemma vadd_rel : forall a a' b b', Forall2 R a a' -> Forall2 R b b' ->
  Forall2 R (vadd arA a b) (vadd arB a' b').
Proof.
  intros a a' b b' H; revert b b'; induction H; intros b b' Hb; [constructor|].
  destruct Hb; simpl; constructor; auto.
Qed.

Lemma app_one_rel : forall h h', Forall2 R h h' -> Forall2 R (h ++ [one arA]) (h' ++ [one arB]).
Proof. intros h h' H. apply Forall2_app; [exact H| constructor; auto]. Qed.

Lemma resnet_forward_rel : forall n outer acts acts' th th' h h',
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (resnet_forward arA n outer acts th h) (resnet_forward arB n outer acts' th' h').
Proof.
  intros n outer acts acts' th th' h h' Ha; revert th th' h h'.
  induction Ha as [| cs cs' acts acts' Hc Ha IH]; intros th th' h h' Ht Hh; simpl; [exact Hh|].
  assert (Hv : Forall2 R (map (horner_val arA cs) (layer_vals arA (n + 1) n th (h ++ [one arA])))
                         (map (horner_val arB cs') (layer_vals arB (n + 1) n th' (h' ++ [one arB])))).
  { apply map_rel; [intros; apply horner_val_rel; assumption|].
    apply layer_vals_rel; [exact Ht| apply app_one_rel; exact Hh]. }
  destruct outer; apply IH.
  - do 2 apply drop_n_rel; exact Ht.
  - apply vadd_rel; [exact Hh| apply layer_vals_rel; [apply drop_n_rel; exact Ht| exact Hv]].
  - apply drop_n_rel; exact Ht.
  - apply vadd_rel; assumption.
Qed.

Lemma mask_pat_rel : forall pat xs xs', Forall2 R xs xs' ->
  Forall2 R (mask_pat arA pat xs) (mask_pat arB pat xs').
Proof.
  induction pat as [| b pat IH]; intros xs xs' H; [constructor|].
  destruct H; simpl; constructor; [destruct b; auto| auto].
Qed.

Lemma relu_masked_rel : forall rest prev pats th th' h h',
  Forall2 R th th' -> Forall2 R h h' ->
  Forall2 R (relu_masked arA prev rest pats th h) (relu_masked arB prev rest pats th' h').
Proof.
  induction rest as [| d rest IH]; intros prev pats th th' h h' Ht Hh; simpl; [exact Hh|].
  assert (Hpre : Forall2 R (layer_vals arA (prev + 1) d th (h ++ [one arA]))
                           (layer_vals arB (prev + 1) d th' (h' ++ [one arB]))).
  { apply layer_vals_rel; [exact Ht| apply app_one_rel; exact Hh]. }
  destruct rest as [| d' rest']; [exact Hpre|].
  apply IH; [apply drop_n_rel; exact Ht| apply mask_pat_rel; exact Hpre].
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

End Rel.

(** * Dual numbers and Z/p on Z *)

(** [A[eps]/(eps^2)]: [(a + da eps)(b + db eps) = a b + (a db + da b) eps]. *)
Definition arith_dual {A : Type} (ar : arith A) : arith (A * A) :=
  mk_arith (A * A)
    (fun x y => (add ar (fst x) (fst y), add ar (snd x) (snd y)))
    (fun x y => (mul ar (fst x) (fst y), add ar (mul ar (fst x) (snd y)) (mul ar (snd x) (fst y))))
    (zero ar, zero ar) (one ar, zero ar).

(** [Z/p] with representatives [x mod p] in [Z] (slower than primitive integers, but every
    fact about it is a theorem of the standard library: no axioms). *)
Definition arith_zmod (p : Z) : arith Z :=
  mk_arith Z (fun a b => ((a + b) mod p)%Z) (fun a b => ((a * b) mod p)%Z) 0%Z 1%Z.

(** The dual numbers mod p on [Z], with the reductions a proof needs and no more: sums are
    exact, products reduced mod p ([(a + da eps)(b + db eps) = ab + (a db + da b) eps]). *)
Definition arith_dmod (p : Z) : arith (Z * Z) :=
  mk_arith (Z * Z)
    (fun x y => (fst x + fst y, snd x + snd y)%Z)
    (fun x y => ((fst x * fst y) mod p, (fst x * snd y + snd x * fst y) mod p)%Z)
    (0%Z, 0%Z) (1%Z, 0%Z).

(** The residue of [num/den] mod p, given the inverse [inv] of [den] ([Arith.rat_mod] on Z). *)
Definition rat_zmod (p : Z) (r : Z * Z) (inv : Z) : Z := ((fst r mod p) * (inv mod p) mod p)%Z.

(** Pointwise [rat_zmod] (to the shorter length). *)
Fixpoint rats_zmod (p : Z) (rs : list (Z * Z)) (invs : list Z) : list Z :=
  match rs, invs with
  | r :: rs', i :: invs' => rat_zmod p r i :: rats_zmod p rs' invs'
  | _, _ => []
  end.

(** [rats_zmod] for every activation. *)
Fixpoint acts_zmod (p : Z) (acts : list (list (Z * Z))) (invs : list (list Z)) : list (list Z) :=
  match acts, invs with
  | a :: acts', i :: invs' => rats_zmod p a i :: acts_zmod p acts' invs'
  | _, _ => []
  end.

(** The constant dual number [v + 0 eps]. *)
Definition dconst (v : Z) : Z * Z := (v, 0%Z).

(** The parameters [theta + eps e_j] as dual numbers, [i] the index of the head. *)
Fixpoint dual_line (th : list Z) (i j : nat) : list (Z * Z) :=
  match th with
  | [] => []
  | v :: th' => (v, if Nat.eqb i j then 1%Z else 0%Z) :: dual_line th' (S i) j
  end.

(** [d f_theta(x)[k] / d theta_j] (mod p) by one forward pass over the dual numbers mod p. *)
Definition mlp_entry_mod (p : Z) (widths : list nat) (acts_m : list (list Z)) (bias : bool)
    (th_m x_m : list Z) (k j : nat) : Z :=
  snd (nth k (mlp_value (arith_dmod p) widths (map (map dconst) acts_m) bias
                (dual_line th_m 0 j) (map dconst x_m)) (0%Z, 0%Z)).

(** * An inverse mod p (untrusted) and the check [M * V = I (mod p)] *)

(** Extended Euclid: [(x, y)] with [a x + b y = gcd a b] (for [fuel] large enough). *)
Fixpoint egcd (fuel : nat) (a b : Z) : Z * Z :=
  match fuel with
  | O => (1%Z, 0%Z)
  | S f =>
      if Z.eqb b 0 then (1%Z, 0%Z)
      else let '(x, y) := egcd f b (a mod b)%Z in (y, (x - (a / b) * y)%Z)
  end.

(** [a^-1 mod p] when [gcd a p = 1]. *)
Definition inv_zmod (p a : Z) : Z := (fst (egcd 100 (a mod p) p) mod p)%Z.

(** [(c * row) mod p]. *)
Definition scale_zrow (p c : Z) (row : list Z) : list Z := map (fun x => (c * x) mod p)%Z row.

(** [(row - c * piv) mod p], to the shorter length. *)
Fixpoint sub_zrow (p c : Z) (piv row : list Z) : list Z :=
  match piv, row with
  | x :: piv', y :: row' => ((y - c * x) mod p)%Z :: sub_zrow p c piv' row'
  | _, _ => []
  end.

(** The first row whose entry [c] is nonzero mod p, and the others in order. *)
Fixpoint pick_zrow (p : Z) (c : nat) (rows : list (list Z)) : option (list Z * list (list Z)) :=
  match rows with
  | [] => None
  | row :: rows' =>
      if negb (Z.eqb (nth_z row c mod p) 0) then Some (row, rows')
      else match pick_zrow p c rows' with
           | None => None
           | Some (piv, rest) => Some (piv, row :: rest)
           end
  end.

(** Gauss-Jordan elimination from column [c] on: [done] rows are reduced, [todo] not yet. *)
Fixpoint gauss_jordan (p : Z) (fuel c : nat) (done todo : list (list Z)) : list (list Z) :=
  match fuel with
  | O => done
  | S f =>
      match pick_zrow p c todo with
      | None => done
      | Some (piv, rest) =>
          let piv' := scale_zrow p (inv_zmod p (nth_z piv c)) piv in
          let elim := fun row => sub_zrow p (nth_z row c) piv' row in
          gauss_jordan p f (S c) (map elim done ++ [piv']) (map elim rest)
      end
  end.

(** Row [i] of [M] followed by the unit row [e_i] of length [r], for [i = start, ...]. *)
Fixpoint augment (r start : nat) (M : list (list Z)) : list (list Z) :=
  match M with
  | [] => []
  | row :: M' => (row ++ unit_vec arith_z r start) :: augment r (S start) M'
  end.

(** Column [b] of [V], for every [b < r]: the transpose. *)
Definition transpose_z (r : nat) (V : list (list Z)) : list (list Z) :=
  map (fun b => map (fun row => nth_z row b) V) (seq 0 r).

(** The transpose of an inverse of the [r x r] matrix [M] mod p (garbage if [M] is singular;
    only [inverse_ok] below is trusted). *)
Definition inverse_zmod_t (p : Z) (r : nat) (M : list (list Z)) : list (list Z) :=
  transpose_z r (map (drop_n r) (gauss_jordan p r 0 [] (augment r 0 M))).

(** [M] and [VT] are [r x r] and [M * VT^T = I (mod p)], entry by entry. *)
Definition inverse_ok (p : Z) (r : nat) (M VT : list (list Z)) : bool :=
  Nat.eqb (length M) r && Nat.eqb (length VT) r && rows_len r M && rows_len r VT &&
  forallb (fun a => forallb (fun b =>
    Z.eqb (dot (arith_zmod p) (nth_row M a) (nth_row VT b)) (if Nat.eqb a b then 1 else 0)%Z)
    (seq 0 r)) (seq 0 r).

(** The [r x r] minor on the Jacobian rows [labels] [(s, k)] and the columns [cols], given
    the entry function [entry s k j] ([d f(x_s)[k] / d theta_j mod p]). *)
Definition minor_of (entry : nat -> nat -> nat -> Z) (labels : list (nat * nat))
    (cols : list nat) : list (list Z) :=
  map (fun l => map (fun c => entry (fst l) (snd l) c) cols) labels.

(** The minor is nonsingular mod p (an inverse exists and is checked). *)
Definition minor_invertible (p : Z) (r : nat) (M : list (list Z)) : bool :=
  inverse_ok p r M (inverse_zmod_t p r M).

(** * The simply verified lower-bound check of an MLP rank certificate *)

(** The minor of the Jacobian mod p on the witness's rows and columns, entry by entry by
    forward mode ([mlp_entry_mod]), from the instance reduced mod p. *)
Definition mlp_minor_mod (inst : rank_instance) (w : lower_witness) : list (list Z) :=
  let p := lw_p w in
  let acts_m := acts_zmod p (acts inst) (lw_acts_inv w) in
  let th_m := rats_zmod p (theta inst) (lw_theta_inv w) in
  minor_of (fun s k j => mlp_entry_mod p (widths inst) acts_m (bias inst) th_m
                           (map (fun x => x mod p)%Z (nth_row (lw_samples w) s)) k j)
    (lw_rows w) (lw_cols w).

(** [p] usable, the denominators invertible mod p, [r] rows [(s, k)] in range, [r] columns
    below [#params], and the minor invertible mod p: RankMeaning.v proves that then the
    Jacobian of [theta -> (f_theta(x_s))_s] has rank [>= r] over Q. *)
Definition check_rank_lower_meaning (inst : rank_instance) (w : lower_witness) (r : nat) : bool :=
  let p := lw_p w in
  p_ok p &&
  rats_inv_ok p (theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (acts inst) (lw_acts_inv w) &&
  Nat.eqb (length (lw_rows w)) r && Nat.eqb (length (lw_cols w)) r &&
  rows_in_range (length (lw_samples w)) (last_width (widths inst)) (lw_rows w) &&
  all_lt (length (theta inst)) (lw_cols w) &&
  minor_invertible p r (mlp_minor_mod inst w).

(** * ResNets *)

(** [d F_theta(x)[k] / d theta_j mod p] by one forward pass over the dual numbers mod p. *)
Definition resnet_entry_mod (p : Z) (n : nat) (outer : bool) (acts_m : list (list Z))
    (th_m x_m : list Z) (k j : nat) : Z :=
  snd (nth k (resnet_forward (arith_dmod p) n outer (map (map dconst) acts_m)
                (dual_line th_m 0 j) (map dconst x_m)) (0%Z, 0%Z)).

(** The minor of the ResNet Jacobian mod p on the witness's rows and columns. *)
Definition resnet_minor_mod (inst : resnet_instance) (w : lower_witness) : list (list Z) :=
  let p := lw_p w in
  let acts_m := acts_zmod p (rn_acts inst) (lw_acts_inv w) in
  let th_m := rats_zmod p (rn_theta inst) (lw_theta_inv w) in
  minor_of (fun s k j => resnet_entry_mod p (rn_width inst) (rn_outer inst) acts_m th_m
                           (map (fun x => x mod p)%Z (nth_row (lw_samples w) s)) k j)
    (lw_rows w) (lw_cols w).

(** As [check_rank_lower_meaning], for a ResNet ([d_out] = the width). *)
Definition check_rank_lower_resnet_meaning (inst : resnet_instance) (w : lower_witness) (r : nat)
  : bool :=
  let p := lw_p w in
  p_ok p &&
  rats_inv_ok p (rn_theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (rn_acts inst) (lw_acts_inv w) &&
  Nat.eqb (length (lw_rows w)) r && Nat.eqb (length (lw_cols w)) r &&
  rows_in_range (length (lw_samples w)) (rn_width inst) (lw_rows w) &&
  all_lt (length (rn_theta inst)) (lw_cols w) &&
  minor_invertible p r (resnet_minor_mod inst w).

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

(** [d F(z)[k] / d theta_j mod p] with the pattern [pats] fixed, one forward pass. *)
Definition relu_entry_mod (p : Z) (widths : list nat) (pats : list (list bool))
    (th_m z_m : list Z) (k j : nat) : Z :=
  snd (nth k (relu_masked (arith_dmod p) (first_width widths) (tl widths) pats
                (dual_line th_m 0 j) (map dconst z_m)) (0%Z, 0%Z)).

(** The minor of the batch Jacobian mod p (pattern of each batch point fixed). *)
Definition relu_minor_mod (inst : relu_instance) (w : relu_lower_witness) : list (list Z) :=
  let p := rl_p w in
  let th_m := rats_zmod p (ri_theta inst) (rl_theta_inv w) in
  let z_m := acts_zmod p (rl_batch w) (rl_batch_inv w) in
  minor_of (fun s k j => relu_entry_mod p (ri_widths inst)
                           (relu_pattern_q (ri_widths inst) (ri_theta inst) (nth_row (rl_batch w) s))
                           th_m (nth_row z_m s) k j)
    (rl_rows w) (rl_cols w).

(** As [check_rank_lower_meaning], for a ReLU network at a batch no point of which lies on a
    bent hyperplane (every hidden pre-activation nonzero). *)
Definition check_relu_rank_lower_meaning (inst : relu_instance) (w : relu_lower_witness) (r : nat)
  : bool :=
  let p := rl_p w in
  p_ok p &&
  rats_pos (ri_theta inst) && acts_pos (rl_batch w) &&
  forallb (relu_nonzero_q (ri_widths inst) (ri_theta inst)) (rl_batch w) &&
  rats_inv_ok p (ri_theta inst) (rl_theta_inv w) &&
  acts_inv_ok p (rl_batch w) (rl_batch_inv w) &&
  Nat.eqb (length (rl_rows w)) r && Nat.eqb (length (rl_cols w)) r &&
  rows_in_range (length (rl_batch w)) (last_width (ri_widths inst)) (rl_rows w) &&
  all_lt (length (ri_theta inst)) (rl_cols w) &&
  minor_invertible p r (relu_minor_mod inst w).

(** * The evaluator is the kernel's network *)

(** [mlp_value] and [resnet_forward] are the value parts of the kernel's forward modes
    [net_eval] (Net.v) and [resnet_dual] (ResNet.v): the networks RankMeaning.v differentiates
    are the networks the kernel evaluates. *)
Section SameNet.
Context {A : Type} (ar : arith A).

Lemma horner_dual_fst : forall cs a da, fst (horner_dual ar cs a da) = horner_val ar cs a.
Proof.
  induction cs as [| c cs IH]; intros a da; simpl; [reflexivity|].
  rewrite <- (IH a da). destruct (horner_dual ar cs a da); reflexivity.
Qed.

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

Lemma layer_dual_spec : forall rowlen n th dth hb dhb,
  fst (layer_dual ar rowlen n th dth hb dhb) = layer_vals ar rowlen n th hb /\
  length (snd (layer_dual ar rowlen n th dth hb dhb)) = n /\
  length (layer_vals ar rowlen n th hb) = n.
Proof.
  intros rowlen n; induction n as [| n IH]; intros th dth hb dhb; simpl; [auto|].
  destruct (IH (drop_n rowlen th) (drop_n rowlen dth) hb dhb) as [H1 [H2 H3]].
  destruct (layer_dual ar rowlen n (drop_n rowlen th) (drop_n rowlen dth) hb dhb); simpl in *.
  rewrite H1, H2, H3. auto.
Qed.

Lemma net_dual_fst : forall bias rest prev acts th dth h dh,
  fst (net_dual ar bias prev rest acts th dth h dh) = mlp_forward ar bias prev rest acts th h.
Proof.
  intros bias rest; induction rest as [| d rest IH]; intros prev acts th dth h dh; simpl;
    [reflexivity|].
  destruct (layer_dual_spec (prev + (if bias then 1 else 0)) d th dth
              (with_bias bias h (one ar)) (with_bias bias dh (zero ar))) as [H1 [H2 H3]].
  destruct (layer_dual ar (prev + (if bias then 1 else 0)) d th dth
              (with_bias bias h (one ar)) (with_bias bias dh (zero ar))) as [pre dpre].
  simpl in H1, H2. subst pre.
  destruct rest as [| d' rest']; [reflexivity|].
  destruct (act_dual_spec (hd [] acts) (layer_vals ar (prev + (if bias then 1 else 0)) d th
              (with_bias bias h (one ar))) dpre) as [K1 _]; [rewrite H2, H3; reflexivity|].
  destruct (act_dual ar (hd [] acts) _ dpre) as [h' dh']. simpl in K1. subst h'.
  apply IH.
Qed.

(** The value of the kernel's forward mode at any tangents is [mlp_value]. *)
Theorem mlp_value_net_eval : forall widths acts bias th dth x dx,
  mlp_value ar widths acts bias th x = fst (net_eval ar widths acts bias th dth x dx).
Proof.
  intros [| d0 rest] acts bias th dth x dx; simpl; [reflexivity|].
  symmetry. apply net_dual_fst.
Qed.

Lemma vadd_vec_add : forall a b, vadd ar a b = vec_add ar a b.
Proof. induction a as [| x a IH]; intros [| y b]; simpl; try rewrite IH; reflexivity. Qed.

Lemma resnet_dual_fst : forall n outer acts th dth h dh,
  fst (resnet_dual ar n outer acts th dth h dh) = resnet_forward ar n outer acts th h.
Proof.
  intros n outer acts; induction acts as [| cs acts IH]; intros th dth h dh; simpl;
    [reflexivity|].
  destruct (layer_dual_spec (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar])) as [H1 [H2 H3]].
  destruct (layer_dual ar (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar])) as [pre dpre].
  simpl in H1, H2. subst pre.
  destruct (act_dual_spec cs (layer_vals ar (n + 1) n th (h ++ [one ar])) dpre) as [K1 K2];
    [rewrite H2, H3; reflexivity|].
  destruct (act_dual ar cs _ dpre) as [v dv]. simpl in K1, K2. subst v.
  destruct outer.
  - destruct (layer_dual_spec n n (drop_n (n * (n + 1)) th) (drop_n (n * (n + 1)) dth)
                (map (horner_val ar cs) (layer_vals ar (n + 1) n th (h ++ [one ar]))) dv)
      as [L1 _].
    destruct (layer_dual ar n n (drop_n (n * (n + 1)) th) (drop_n (n * (n + 1)) dth) _ dv)
      as [w dw].
    simpl in L1. subst w. rewrite IH. reflexivity.
  - rewrite IH. reflexivity.
Qed.

(** The value of the kernel's ResNet forward mode is [resnet_forward]. *)
Theorem resnet_forward_dual : forall n outer acts th dth x dx,
  resnet_forward ar n outer acts th x = fst (resnet_dual ar n outer acts th dth x dx).
Proof. intros. symmetry. apply resnet_dual_fst. Qed.

End SameNet.

(** * The upper bound of an MLP rank certificate, simply verified *)

(** The parameters [theta + eps v] as exact dual rationals ([v] padded with zeros). *)
Fixpoint dir_line_q (th : list (Z * Z)) (v : list Z) : list ((Z * Z) * (Z * Z)) :=
  match th, v with
  | [], _ => []
  | t :: th', x :: v' => (t, (x, 1%Z)) :: dir_line_q th' v'
  | t :: th', [] => (t, (0%Z, 1%Z)) :: dir_line_q th' []
  end.

(** [(f_theta(x), d/dt f_(theta + t v)(x) at t = 0)] exactly over Q, one forward pass. *)
Definition mlp_dir_q (inst : rank_instance) (x v : list Z) : list ((Z * Z) * (Z * Z)) :=
  mlp_value (arith_dual arith_q) (widths inst)
    (map (map (fun c => (c, (0%Z, 1%Z)))) (acts inst)) (bias inst)
    (dir_line_q (theta inst) v) (map (fun z => ((z, 1%Z), (0%Z, 1%Z))) x).

(** The columns [cols] of every tangent. *)
Definition tangent_minor (ts : list (list Z)) (cols : list nat) : list (list Z) :=
  map (fun t => map (fun c => nth_z t c) cols) ts.

(** Positive denominators, [u + s = #params], the tangents of length [#params], every
    directional derivative along a tangent zero (exactly) at every point of the lattice
    [{x in N^d0 : |x| <= D}], and a minor of the tangents invertible mod p. *)
Definition check_rank_upper_meaning (inst : rank_instance) (w : upper_witness) (u : nat) : bool :=
  let n := length (theta inst) in
  let s := length (uw_tangents w) in
  rats_pos (theta inst) && acts_pos (acts inst) && Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) && p_ok (uw_p w) &&
  Nat.eqb (length (uw_cols w)) s && all_lt n (uw_cols w) &&
  forallb (fun v => forallb (fun x => forallb (fun y => Z.eqb (fst (snd y)) 0) (mlp_dir_q inst x v))
                      (lattice (first_width (widths inst)) (degree_bound (acts inst))))
    (uw_tangents w) &&
  minor_invertible (uw_p w) s (tangent_minor (uw_tangents w) (uw_cols w)).
