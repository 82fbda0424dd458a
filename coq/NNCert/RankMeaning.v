(** What a rank certificate means, part 2 (MathComp 1.15): the Jacobian of
    [theta -> (f_theta(x_s))_s] defined mathematically, and the theorem that the check of
    Jacobian.v implies [r <= \rank] of it over Q.
    - [zr : Z -> R] is the ring morphism from Coq's integers to any ring; [q_of (n, d) = n/d].
    - The network is evaluated over the polynomial ring [{poly rat}] at the parameters
      [theta + t e_j] ([theta_line]); the Jacobian entry is the derivative at [t = 0] of the
      polynomial [t -> f_(theta + t e_j)(x)[k]] ([mlp_jac_entry]), which is its coefficient of
      [t] ([mlp_jac_entry_coef]). Nothing here depends on how the checkers compute.
    - The proof: the forward pass over the dual numbers mod p of Jacobian.v is related, entry by
      entry, to the evaluation over [{poly rat}] by the relation [Rq]: [q] (rational) and [a]
      (in [Z/p]) are [n/d] and [n d^-1] for integers [n, d] with [d] a unit mod p. [Rq] respects
      [0, 1, +, *], hence (parametricity, Jacobian.v) evaluation and the determinant; a unit
      determinant mod p then forces a nonzero rational determinant, an invertible [r x r] minor
      and [r <= \rank]. No axioms: MathComp's [rat], [poly] and matrices are constructive. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop perm ssralg poly matrix mxalgebra zmodp rat ssrnum div.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(** * Integers into rings *)

(** The image of [z] in the ring [R]: [z 1_R]. *)
Definition zr {R : ringType} (z : Z) : R := (Z.to_nat z)%:R - (Z.to_nat (Z.opp z))%:R.

Section Zr.
Variable R : ringType.

Lemma zr0 : zr 0 = 0 :> R.
Proof. by rewrite /zr /= subr0. Qed.

Lemma zr1 : zr 1 = 1 :> R.
Proof. by rewrite /zr /= subr0. Qed.

Lemma zr_succ z : zr (Z.succ z) = zr z + 1 :> R.
Proof.
  rewrite /zr. destruct (Z_lt_le_dec z 0) as [Hn | Hp].
  - have E1 : Z.to_nat (Z.succ z) = 0%N by lia.
    have E2 : Z.to_nat z = 0%N by lia.
    have E3 : Z.to_nat (Z.opp z) = (Z.to_nat (Z.opp (Z.succ z))).+1 by lia.
    by rewrite E1 E2 E3 mulrSr !sub0r opprD addrNK.
  - have E1 : Z.to_nat (Z.succ z) = (Z.to_nat z).+1 by lia.
    have E2 : Z.to_nat (Z.opp (Z.succ z)) = 0%N by lia.
    have E3 : Z.to_nat (Z.opp z) = 0%N by lia.
    by rewrite E1 E2 E3 mulrSr !subr0.
Qed.

Lemma zr_pred z : zr (Z.pred z) = zr z - 1 :> R.
Proof. by rewrite -{2}(Z.succ_pred z) zr_succ addrK. Qed.

Lemma zrD a b : zr (a + b)%Z = zr a + zr b :> R.
Proof.
  induction b as [| b IH | b IH] using Z.peano_ind.
  - by rewrite Z.add_0_r zr0 addr0.
  - by rewrite Z.add_succ_r !zr_succ IH addrA.
  - by rewrite Z.add_pred_r !zr_pred IH addrA.
Qed.

Lemma zrN a : zr (Z.opp a) = - zr a :> R.
Proof. by apply/eqP; rewrite -addr_eq0 -zrD Z.add_opp_diag_l zr0. Qed.

Lemma zrM a b : zr (a * b)%Z = zr a * zr b :> R.
Proof.
  induction b as [| b IH | b IH] using Z.peano_ind.
  - by rewrite Z.mul_0_r zr0 mulr0.
  - by rewrite Z.mul_succ_r zrD IH zr_succ mulrDr mulr1.
  - by rewrite Z.mul_pred_r -Z.add_opp_r zrD zrN IH zr_pred mulrBr mulr1.
Qed.

End Zr.

(** In a field of characteristic 0 ([rat]), [zr] is injective at 0. *)
Lemma zr_eq0 (z : Z) : zr z = 0 :> rat -> z = 0%Z.
Proof. move/eqP; rewrite /zr subr_eq0 eqr_nat => /eqP H. lia. Qed.

(** * The relation between Q and Z/p *)

(** * The Jacobian of a polynomial MLP, defined mathematically *)

(** The rational [num/den]. *)
Definition q_of (r : Z * Z) : rat := zr (fst r) / zr (snd r).

(** A ring's operations as an [arith]. *)
Definition arith_ring (R : ringType) : arith R := mk_arith R +%R *%R 0 1.

(** The parameters [theta + t e_j] as polynomials in [t] ([i]: the index of the head). *)
Fixpoint theta_line (th : list (Z * Z)) (i j : nat) : list {poly rat} :=
  match th with
  | nil => nil
  | v :: th' => ((q_of v)%:P + (if Nat.eqb i j then 'X else 0)) :: theta_line th' i.+1 j
  end.

(** [d f_theta(x)[k] / d theta_j]: the derivative at [t = 0] of the polynomial
    [t -> f_(theta + t e_j)(x)[k]], the network evaluated over [{poly rat}]. *)
Definition mlp_jac_entry (inst : rank_instance) (x : list Z) (k j : nat) : rat :=
  let P := List.nth k (mlp_value (arith_ring _ : arith {poly rat}) (widths inst)
             (List.map (List.map (fun c => (q_of c)%:P)) (acts inst)) (bias inst)
             (theta_line (theta inst) 0 j) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

(** The Jacobian of [theta -> (f_theta(x_s))_s] at the instance's [theta]: row [s * d_out + k]
    is the gradient of output [k] at the sample [x_s]; one column per parameter. *)
Definition mlp_jacobian (inst : rank_instance) (samples : list (list Z)) :
  'M[rat]_(length samples * last_width (widths inst), length (theta inst)) :=
  \matrix_(i, j) mlp_jac_entry inst (nth_row samples (i %/ last_width (widths inst)))
                   (i %% last_width (widths inst)) j.

(** * The Jacobians of ResNets and ReLU networks, defined mathematically *)

(** [d F_theta(x)[k] / d theta_j] for a ResNet: the derivative at [t = 0] of
    [t -> F_(theta + t e_j)(x)[k]], the network evaluated over [{poly rat}]. *)
Definition resnet_jac_entry (inst : resnet_instance) (x : list Z) (k j : nat) : rat :=
  let P := List.nth k (resnet_forward (arith_ring _ : arith {poly rat}) (rn_width inst)
             (rn_outer inst) (List.map (List.map (fun c => (q_of c)%:P)) (rn_acts inst))
             (theta_line (rn_theta inst) 0 j) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

(** The Jacobian of [theta -> (F_theta(x_s))_s] at the instance (rows [s * width + k]). *)
Definition resnet_jacobian (inst : resnet_instance) (samples : list (list Z)) :
  'M[rat]_(length samples * rn_width inst, length (rn_theta inst)) :=
  \matrix_(i, j) resnet_jac_entry inst (nth_row samples (i %/ rn_width inst))
                   (i %% rn_width inst) j.

(** The hidden pre-activations of the ReLU network at the instance's [theta] and the rational
    input [z], exactly over Q ([ReLU(a) = a] if [0 < a], else [0]). *)
Definition relu_preacts (inst : relu_instance) (z : list (Z * Z)) : list (list rat) :=
  relu_pres (arith_ring _ : arith rat) (fun q => 0 < q) (first_width (ri_widths inst))
    (tl (ri_widths inst)) (List.map q_of (ri_theta inst)) (List.map q_of z).

(** No input of the batch lies on a bent hyperplane: every hidden pre-activation is nonzero, so
    near [theta] the network at [z] is the polynomial network with [z]'s activation pattern. *)
Definition relu_batch_generic (inst : relu_instance) (batch : list (list (Z * Z))) : Prop :=
  forall z, In z batch -> forall l, In l (relu_preacts inst z) -> forall q, In q l -> q != 0.

(** [d F_theta(z)[k] / d theta_j]: the derivative at [t = 0] of [t -> F_(theta + t e_j)(z)[k]]
    with the activation pattern of [z] at [theta] fixed (the network near [theta] when
    [relu_batch_generic] holds), evaluated over [{poly rat}]. *)
Definition relu_jac_entry (inst : relu_instance) (z : list (Z * Z)) (k j : nat) : rat :=
  let pats := List.map (List.map (fun q => 0 < q)) (relu_preacts inst z) in
  let P := List.nth k (relu_masked (arith_ring _ : arith {poly rat})
             (first_width (ri_widths inst)) (tl (ri_widths inst)) pats
             (theta_line (ri_theta inst) 0 j) (List.map (fun q => (q_of q)%:P) z)) 0 in
  P^`().[0].

(** The Jacobian of [theta -> (F_theta(z))_(z in batch)] at the instance. *)
Definition relu_jacobian (inst : relu_instance) (batch : list (list (Z * Z))) :
  'M[rat]_(length batch * last_width (ri_widths inst), length (ri_theta inst)) :=
  \matrix_(i, j) relu_jac_entry inst (nth_row batch (i %/ last_width (ri_widths inst)))
                   (i %% last_width (ri_widths inst)) j.

(** * Exact rationals as pairs *)

(** The pair [(n, d)], [d > 0], is the rational [q]. *)
Definition RQ (q : rat) (a : Z * Z) : Prop := (0 < snd a)%Z /\ q = q_of a.

Lemma zr_neq0 (d : Z) : (0 < d)%Z -> zr d != 0 :> rat.
Proof. move=> Hd. apply/eqP => /zr_eq0. lia. Qed.

Lemma zr_gt0 (n : Z) : (0 < zr n :> rat) = (0 <? n)%Z.
Proof.
  rewrite /zr. case: (Z.ltb_spec 0 n) => Hn.
  - have -> : Z.to_nat (Z.opp n) = 0%N by lia.
    rewrite subr0 ltr0n. apply/ltP. lia.
  - have -> : Z.to_nat n = 0%N by lia.
    by rewrite sub0r oppr_gt0 ltrn0.
Qed.

Lemma RQ0 : RQ 0 (0, 1)%Z.
Proof. split; [done|]. by rewrite /q_of /= zr0 mul0r. Qed.

Lemma RQ1 : RQ 1 (1, 1)%Z.
Proof. split; [done|]. by rewrite /q_of /= zr1 divr1. Qed.

Lemma RQadd q q' a b : RQ q a -> RQ q' b -> RQ (q + q') (qadd a b).
Proof.
  move=> [Ha ->] [Hb ->]. split; [rewrite /qadd /=; nia|].
  rewrite /q_of /qadd /= addf_div ?zr_neq0 //. by rewrite zrD !zrM.
Qed.

Lemma RQmul q q' a b : RQ q a -> RQ q' b -> RQ (q * q') (qmul a b).
Proof.
  move=> [Ha ->] [Hb ->]. split; [rewrite /qmul /=; nia|].
  by rewrite /q_of /qmul /= mulf_div !zrM.
Qed.

Lemma RQ_pos q a : RQ q a -> (0 < q) = qpos a.
Proof.
  move=> [Ha ->]. rewrite /q_of /qpos pmulr_lgt0 ?zr_gt0 //.
  by rewrite invr_gt0 zr_gt0; apply/Z.ltb_lt.
Qed.

Lemma RQ_nonzero q a : RQ q a -> (q != 0) = negb (Z.eqb (fst a) 0).
Proof.
  move=> [Ha ->]. rewrite /q_of mulf_eq0 invr_eq0 negb_or (negbTE (zr_neq0 _ Ha)) andbT.
  case: (Z.eqb_spec (fst a) 0) => [-> | Hn]; [by rewrite zr0 eqxx|].
  apply/eqP => /zr_eq0. exact: Hn.
Qed.

Lemma rats_rel th : rats_pos th = true -> Forall2 RQ (List.map q_of th) th.
Proof.
  elim: th => [| v th IH] //= /andP [/Z.ltb_lt Hv Hth]. constructor; [by split| exact: IH].
Qed.

Lemma map_map_pos_rel pres pres' : Forall2 (Forall2 RQ) pres pres' ->
  List.map (List.map (fun q => 0 < q)) pres = List.map (List.map qpos) pres'.
Proof.
  elim=> [| l l' ls ls' Hl _ IH] //=. rewrite IH. congr (_ :: _).
  elim: Hl => [| q a qs as' Hq _ IHq] //=. by rewrite IHq (RQ_pos _ _ Hq).
Qed.

Lemma relu_pres_RQ inst z : rats_pos (ri_theta inst) = true -> rats_pos z = true ->
  Forall2 (Forall2 RQ) (relu_preacts inst z)
    (relu_pres arith_q qpos (first_width (ri_widths inst)) (tl (ri_widths inst)) (ri_theta inst) z).
Proof.
  move=> Ht Hz. apply: (relu_pres_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQ1 RQadd RQmul).
  - exact: RQ_pos.
  - exact: rats_rel.
  - exact: rats_rel.
Qed.

(** The pattern the check computes over Q pairs is the pattern of the mathematical network. *)
Lemma relu_pattern_eq inst z : rats_pos (ri_theta inst) = true -> rats_pos z = true ->
  List.map (List.map (fun q => 0 < q)) (relu_preacts inst z) =
  relu_pattern_q (ri_widths inst) (ri_theta inst) z.
Proof. move=> Ht Hz. rewrite /relu_pattern_q. apply: map_map_pos_rel. exact: relu_pres_RQ. Qed.

Lemma relu_nonzero_sound inst z : rats_pos (ri_theta inst) = true -> rats_pos z = true ->
  relu_nonzero_q (ri_widths inst) (ri_theta inst) z = true ->
  forall l, In l (relu_preacts inst z) -> forall q, In q l -> q != 0.
Proof.
  move=> Ht Hz. rewrite /relu_nonzero_q. have := relu_pres_RQ inst z Ht Hz.
  elim=> [| l l' ls ls' Hl _ IH] /=; first by move=> _ l0 [].
  move=> /andP [Hl' Hls] l0 /= [E | Hin] q Hq; last exact: (IH Hls l0 Hin q Hq).
  subst l0. elim: Hl Hl' Hq => [| q0 a qs as' Hqa _ IHq] /=; first by move=> _ [].
  move=> /andP [Ha Has] [E | Hq]; last exact: (IHq Has Hq).
  subst q. by rewrite (RQ_nonzero _ _ Hqa).
Qed.

(** The derivative at 0 is the coefficient of [t]. *)
Lemma deriv_at0 (P : {poly rat}) : P^`().[0] = P`_1.
Proof. by rewrite horner_coef0 coef_deriv mulr1n. Qed.

(** A nonsingular [r x r] minor: rank at least [r]. *)
Lemma rank_of_minor m n r (J : 'M[rat]_(m, n)) (f : 'I_r -> 'I_m) (g : 'I_r -> 'I_n) :
  mxsub f g J \in unitmx -> (r <= \rank J)%N.
Proof.
  move=> U. rewrite -(mxrank_unit U) mxsubrc rowsubE.
  apply: (leq_trans (mxrankM_maxr _ _)).
  rewrite -mxrank_tr -[X in (_ <= X)%N]mxrank_tr.
  have -> : (mxsub id g J)^T = mxsub g id J^T by apply/matrixP => i j; rewrite !mxE.
  rewrite rowsubE. exact: mxrankM_maxr.
Qed.

(** * Indices *)

Lemma nth_row_nth {A : Type} (rows : list (list A)) i : nth_row rows i = List.nth i rows nil.
Proof. by elim: rows i => [| r rows IH] [| i] //=. Qed.


Lemma nth_map_lt {A B : Type} (f : A -> B) (l : list A) n d d' :
  (n < length l)%N -> List.nth n (List.map f l) d' = f (List.nth n l d).
Proof. elim: l n => [| x l IH] [| n] //= H. exact: IH. Qed.

Lemma minor_of_nth e (rows : list (nat * nat)) cols a b :
  (a < length rows)%N -> (b < length cols)%N ->
  List.nth b (nth_row (minor_of e rows cols) a) 0%Z =
  e (fst (List.nth a rows (0, 0)%N)) (snd (List.nth a rows (0, 0)%N)) (List.nth b cols 0%N).
Proof.
  move=> Ha Hb. rewrite nth_row_nth /minor_of (nth_map_lt _ _ _ (0, 0)%N) //.
  by rewrite (nth_map_lt _ _ _ 0%N).
Qed.

Lemma rows_in_range_nth m dout rows a :
  rows_in_range m dout rows = true -> (a < length rows)%N ->
  (fst (List.nth a rows (0, 0)%N) < m)%N /\ (snd (List.nth a rows (0, 0)%N) < dout)%N.
Proof.
  elim: rows a => [| l rows IH] [| a] //= /andP [/andP [/Nat.ltb_lt H1 /Nat.ltb_lt H2] H3] Ha.
  - by split; apply/ltP.
  - exact: IH.
Qed.

Lemma all_lt_nth k xs b : all_lt k xs = true -> (b < length xs)%N -> (List.nth b xs 0%N < k)%N.
Proof.
  elim: xs b => [| x xs IH] [| b] //= /andP [/Nat.ltb_lt H1 H2] Hb.
  - by apply/ltP.
  - exact: IH.
Qed.

(** Row [s * dout + k] of a Jacobian with [dout] outputs is output [k] at sample [s]. *)
Lemma row_index s k dout : (k < dout)%N -> (s * dout + k) %/ dout = s /\ (s * dout + k) %% dout = k.
Proof.
  move=> Hk. have Hd : (0 < dout)%N by apply: leq_ltn_trans Hk.
  by rewrite divnMDl // divn_small // addn0 modnMDl modn_small.
Qed.

Lemma row_index_lt s k m dout : (s < m)%N -> (k < dout)%N -> (s * dout + k < m * dout)%N.
Proof.
  move=> Hs Hk. apply: (@leq_trans (s.+1 * dout)); last by rewrite leq_mul2r Hs orbT.
  by rewrite mulSnr ltn_add2l.
Qed.

Section ModP.
Variable p : Z.
Hypothesis Hp : (1 < p)%Z.
Local Notation pn := (Z.to_nat p).

Lemma pn_gt1 : (1 < pn)%N.
Proof. apply/ltP. lia. Qed.

Lemma zr_p : zr p = 0 :> 'Z_pn.
Proof.
  rewrite /zr. have -> : Z.to_nat (Z.opp p) = 0%N by lia.
  by rewrite subr0 char_Zp // pn_gt1.
Qed.

Lemma zr_mod z : zr (z mod p)%Z = zr z :> 'Z_pn.
Proof. by rewrite {2}(Z_div_mod_eq_full z p) zrD zrM zr_p mul0r add0r. Qed.

(** [q = n/d] in Q and [a = n d^-1] in [Z/p], [d] a unit mod p. *)
Definition Rq (q : rat) (a : 'Z_pn) : Prop :=
  exists n d : Z, q * zr d = zr n /\ a * zr d = zr n /\ (zr d : 'Z_pn) \is a GRing.unit.

Lemma frac_add (R : comRingType) (q q' : R) n d n' d' :
  q * zr d = zr n -> q' * zr d' = zr n' -> (q + q') * zr (d * d') = zr (n * d' + n' * d).
Proof.
  move=> H H'. rewrite zrD !zrM mulrDl mulrA H mulrCA H'.
  by rewrite [zr d * _]mulrC.
Qed.

Lemma frac_mul (R : comRingType) (q q' : R) n d n' d' :
  q * zr d = zr n -> q' * zr d' = zr n' -> (q * q') * zr (d * d') = zr (n * n').
Proof. move=> H H'. by rewrite !zrM mulrACA H H'. Qed.

Lemma Rq_int z : Rq (zr z) (zr z).
Proof. exists z, 1%Z. by rewrite !zr1 !mulr1 unitr1. Qed.

Lemma Rq0 : Rq 0 0.
Proof. have := Rq_int 0. by rewrite !zr0. Qed.

Lemma Rq1 : Rq 1 1.
Proof. have := Rq_int 1. by rewrite !zr1. Qed.

Lemma RqD q a q' a' : Rq q a -> Rq q' a' -> Rq (q + q') (a + a').
Proof.
  move=> [n [d [H1 [H2 H3]]]] [n' [d' [H1' [H2' H3']]]].
  exists (n * d' + n' * d)%Z, (d * d')%Z.
  split; [exact: frac_add|]. split; [exact: frac_add|].
  by rewrite zrM unitrM H3 H3'.
Qed.

Lemma RqM q a q' a' : Rq q a -> Rq q' a' -> Rq (q * q') (a * a').
Proof.
  move=> [n [d [H1 [H2 H3]]]] [n' [d' [H1' [H2' H3']]]].
  exists (n * n')%Z, (d * d')%Z.
  split; [exact: frac_mul|]. split; [exact: frac_mul|].
  by rewrite zrM unitrM H3 H3'.
Qed.

Lemma Rq_sign (b : bool) : Rq ((-1) ^+ b) ((-1) ^+ b).
Proof.
  case: b; rewrite /= ?expr1 ?expr0; [|exact: Rq1].
  have := Rq_int (Z.opp 1). by rewrite !zrN !zr1.
Qed.

(** A unit mod p is the image of a nonzero rational. *)
Lemma Rq_nonzero q a : Rq q a -> a \is a GRing.unit -> q != 0.
Proof.
  move=> [n [d [H1 [H2 H3]]]] Ha. apply/eqP => Hq.
  move: H1; rewrite Hq mul0r => /esym /zr_eq0 Hn.
  move: H2; rewrite Hn zr0 -(mul0r (zr d)) => /(mulIr H3) Ha0.
  by move: Ha; rewrite Ha0 unitr0.
Qed.

(** [Rq] entrywise gives [Rq] of the determinants (the Leibniz formula). *)
Lemma Rq_det r (A : 'M[rat]_r) (B : 'M['Z_pn]_r) :
  (forall i j, Rq (A i j) (B i j)) -> Rq (\det A) (\det B).
Proof.
  move=> H. rewrite /determinant.
  apply: (big_ind2 Rq Rq0 RqD) => s _.
  apply: RqM; [exact: Rq_sign|].
  apply: (big_ind2 Rq Rq1 RqM) => i _. exact: H.
Qed.

(** * The check [M * VT^T = I (mod p)] *)

Lemma zr_dot xs ys r : length xs = r -> length ys = r ->
  zr (dot (arith_zmod p) xs ys) =
  \sum_(k < r) zr (List.nth k xs 0%Z) * zr (List.nth k ys 0%Z) :> 'Z_pn.
Proof.
  elim: xs ys r => [| x xs IH] [| y ys] [| r] //= Hx Hy.
  - by rewrite big_ord0 zr0.
  - case: Hx => Hx. case: Hy => Hy.
    by rewrite big_ord_recl /= zr_mod zrD zr_mod zrM (IH ys r Hx Hy).
Qed.


(** The residues of [M] as a matrix over [Z/p]. *)
Definition zmat (r : nat) (M : list (list Z)) : 'M['Z_pn]_r :=
  \matrix_(a < r, b < r) zr (List.nth b (nth_row M a) 0%Z).

Lemma forallb_seq (f : nat -> bool) r : forallb f (List.seq 0 r) = true ->
  forall a, (a < r)%N -> f a = true.
Proof.
  move=> H a Ha. move: H => /forallb_forall; apply. apply/in_seq. move/ltP: Ha. lia.
Qed.

Lemma rows_len_nth {A : Type} m (rows : list (list A)) a :
  rows_len m rows = true -> (a < length rows)%N -> length (nth_row rows a) = m.
Proof.
  elim: rows a => [| row rows IH] [| a] //= /andP [/Nat.eqb_eq H1 H2] Ha //.
  exact: IH.
Qed.

Lemma inverse_ok_unit r M VT : inverse_ok p r M VT = true -> zmat r M \in unitmx.
Proof.
  rewrite /inverse_ok => /andP [/andP [/andP [/andP [/Nat.eqb_eq HM /Nat.eqb_eq HV] HMr] HVr] Hall].
  pose V : 'M['Z_pn]_r := \matrix_(k < r, b < r) zr (List.nth k (nth_row VT b) 0%Z).
  suff E : zmat r M *m V = 1%:M by case: (mulmx1_unit E).
  apply/matrixP => a b. rewrite !mxE.
  have Hb := forallb_seq _ _ (forallb_seq _ _ Hall a (ltn_ord a)) b (ltn_ord b).
  move: Hb => /Z.eqb_eq /(congr1 (fun z => zr z : 'Z_pn)).
  rewrite (zr_dot _ _ r); last first.
  - apply: rows_len_nth => //. by rewrite HV.
  - apply: rows_len_nth => //. by rewrite HM.
  move=> Hd. under eq_bigr do rewrite !mxE. rewrite Hd.
  case: (Nat.eqb_spec a b) => [E | E].
  - have -> : a == b by apply/eqP/val_inj.
    by rewrite zr1.
  - have -> : (a == b) = false by apply/eqP => E'; apply: E; rewrite E'.
    by rewrite zr0.
Qed.

(** * Forward mode over the dual numbers mod p computes the Jacobian entries *)

Definition Rf (q : rat) (z : Z) : Prop := Rq q (zr z).

(** [P] and the dual number [x] agree on the coefficients of [1] and [t]. *)
Definition RD (P : {poly rat}) (x : Z * Z) : Prop := Rf (P`_0) (fst x) /\ Rf (P`_1) (snd x).

Lemma Rf_add q z q' z' : Rf q z -> Rf q' z' -> Rf (q + q') (z + z')%Z.
Proof. rewrite /Rf zrD. exact: RqD. Qed.

Lemma Rf_mulz q z q' z' : Rf q z -> Rf q' z' -> Rf (q * q') (z * z')%Z.
Proof. rewrite /Rf zrM. exact: RqM. Qed.

Lemma Rf_mod q z : Rf q z -> Rf q (z mod p)%Z.
Proof. by rewrite /Rf zr_mod. Qed.

Lemma Rf_int z : Rf (zr z) z.
Proof. exact: Rq_int. Qed.

Lemma coefM0 (P Q : {poly rat}) : (P * Q)`_0 = P`_0 * Q`_0.
Proof. by rewrite coefM big_ord_recl big_ord0 addr0. Qed.

Lemma coefM1 (P Q : {poly rat}) : (P * Q)`_1 = P`_0 * Q`_1 + P`_1 * Q`_0.
Proof. by rewrite coefM !big_ord_recl big_ord0 addr0. Qed.

Lemma RD0 : RD 0 (0%Z, 0%Z).
Proof. rewrite /RD !coef0 /Rf zr0. split; exact: Rq0. Qed.

Lemma RD1 : RD 1 (1%Z, 0%Z).
Proof. rewrite /RD !coef1 /= /Rf zr0 zr1. split; [exact: Rq1 | exact: Rq0]. Qed.

Lemma RDadd P Q x y : RD P x -> RD Q y ->
  RD (P + Q) (add (arith_dmod p) x y).
Proof. move=> [H0 H1] [K0 K1]. rewrite /RD /= !coefD. split; exact: Rf_add. Qed.

Lemma RDmul P Q x y : RD P x -> RD Q y -> RD (P * Q) (mul (arith_dmod p) x y).
Proof.
  move=> [H0 H1] [K0 K1]. rewrite /RD /= coefM0 coefM1.
  split; apply: Rf_mod; [exact: Rf_mulz|]. apply: Rf_add; exact: Rf_mulz.
Qed.

Lemma Rf_rat v inv : rat_inv_ok p v inv = true -> Rf (q_of v) (rat_zmod p v inv).
Proof.
  rewrite /rat_inv_ok => /andP [/Z.ltb_lt Hd /Z.eqb_eq Hi].
  rewrite /Rf /rat_zmod zr_mod zrM !zr_mod.
  have Hinv : zr (snd v) * zr inv = 1 :> 'Z_pn.
    by rewrite -zrM -zr_mod Z.mul_mod ?Hi ?zr1 //; lia.
  exists (fst v), (snd v). split; [| split].
  - rewrite /q_of mulfVK //. apply/eqP => /zr_eq0. lia.
  - by rewrite -mulrA [zr inv * _]mulrC Hinv mulr1.
  - apply/unitrPr. by exists (zr inv).
Qed.

Lemma theta_line_rel th invs i j : rats_inv_ok p th invs = true ->
  Forall2 RD (theta_line th i j) (dual_line (rats_zmod p th invs) i j).
Proof.
  elim: th invs i => [| v th IH] [| inv invs] i //= /andP [Hv Hth].
  constructor; [| exact: IH].
  rewrite /RD /= !coefD !coefC /=. split.
  - case: (Nat.eqb i j); rewrite ?coefX ?coef0 /= addr0; exact: Rf_rat.
  - rewrite add0r. case: (Nat.eqb i j); rewrite ?coefX ?coef0 /=.
    + rewrite /Rf zr1. exact: Rq1.
    + rewrite /Rf zr0. exact: Rq0.
Qed.

Lemma consts_rel cs invs : rats_inv_ok p cs invs = true ->
  Forall2 RD (List.map (fun c => (q_of c)%:P) cs) (List.map dconst (rats_zmod p cs invs)).
Proof.
  elim: cs invs => [| c cs IH] [| inv invs] //= /andP [Hc Hcs].
  constructor; [| exact: IH].
  rewrite /RD /= !coefC /=. split; [exact: Rf_rat|]. rewrite /Rf zr0. exact: Rq0.
Qed.

Lemma acts_rel acts invs : acts_inv_ok p acts invs = true ->
  Forall2 (Forall2 RD) (List.map (List.map (fun c => (q_of c)%:P)) acts)
    (List.map (List.map dconst) (acts_zmod p acts invs)).
Proof.
  elim: acts invs => [| a acts IH] [| inv invs] //= /andP [Ha Hacts].
  constructor; [exact: consts_rel | exact: IH].
Qed.

Lemma ints_rel x : Forall2 RD (List.map (fun z => (zr z)%:P) x)
  (List.map dconst (List.map (fun x => x mod p)%Z x)).
Proof.
  elim: x => [| z x IH] //=. constructor; [| exact: IH].
  rewrite /RD /= !coefC /=. split; [rewrite /Rf zr_mod; exact: Rq_int|].
  rewrite /Rf zr0. exact: Rq0.
Qed.

(** The forward pass mod p computes the image of the mathematical Jacobian entry. *)
Lemma mlp_entry_rel inst (thi : list Z) (aci : list (list Z)) x k j :
  rats_inv_ok p (theta inst) thi = true -> acts_inv_ok p (acts inst) aci = true ->
  Rq (mlp_jac_entry inst x k j)
     (zr (mlp_entry_mod p (widths inst) (acts_zmod p (acts inst) aci) (bias inst)
            (rats_zmod p (theta inst) thi) (List.map (fun x => x mod p)%Z x) k j)).
Proof.
  move=> Hth Hac.
  have H := mlp_value_rel (arith_ring _ : arith {poly rat}) (arith_dmod p) RD
              RD0 RD1 RDadd RDmul (widths inst) _ _ (bias inst) _ _ _ _
              (acts_rel _ _ Hac) (theta_line_rel _ _ 0 j Hth) (ints_rel x).
  have [_ H1] := nth_rel RD k _ _ _ _ H RD0.
  rewrite /mlp_jac_entry deriv_at0. exact: H1.
Qed.

(** The shared step: an [r x r] minor of [J] (rows [rowf a], columns [colf b]) whose entries
    are related to the residues [M], and [M] invertible mod p: [r <= \rank J]. *)
Lemma lower_from_minor m n r (Jf : nat -> nat -> rat) (rowf colf : nat -> nat)
    (M : list (list Z)) :
  (forall a, (a < r)%N -> (rowf a < m)%N) -> (forall b, (b < r)%N -> (colf b < n)%N) ->
  (forall a b, (a < r)%N -> (b < r)%N ->
     Rq (Jf (rowf a) (colf b)) (zr (List.nth b (nth_row M a) 0%Z))) ->
  minor_invertible p r M = true ->
  (r <= \rank (\matrix_(i < m, j < n) Jf i j))%N.
Proof.
  move=> Hr Hc HR Hinv.
  pose f (a : 'I_r) : 'I_m := Ordinal (Hr a (ltn_ord a)).
  pose g (b : 'I_r) : 'I_n := Ordinal (Hc b (ltn_ord b)).
  apply: (@rank_of_minor _ _ _ _ f g).
  have U := inverse_ok_unit _ _ _ Hinv.
  rewrite unitmxE unitfE. apply: (@Rq_nonzero _ (\det (zmat r M))).
  - apply: Rq_det => a b. rewrite !mxE. exact: HR.
  - by rewrite -unitmxE.
Qed.

Lemma resnet_entry_rel inst (thi : list Z) (aci : list (list Z)) x k j :
  rats_inv_ok p (rn_theta inst) thi = true -> acts_inv_ok p (rn_acts inst) aci = true ->
  Rq (resnet_jac_entry inst x k j)
     (zr (resnet_entry_mod p (rn_width inst) (rn_outer inst) (acts_zmod p (rn_acts inst) aci)
            (rats_zmod p (rn_theta inst) thi) (List.map (fun x => x mod p)%Z x) k j)).
Proof.
  move=> Hth Hac.
  have H := resnet_forward_rel (arith_ring _ : arith {poly rat}) (arith_dmod p)
              RD RD0 RD1 RDadd RDmul (rn_width inst) (rn_outer inst) _ _ _ _ _ _
              (acts_rel _ _ Hac) (theta_line_rel _ _ 0 j Hth) (ints_rel x).
  have [_ H1] := nth_rel RD k _ _ _ _ H RD0.
  rewrite /resnet_jac_entry deriv_at0. exact: H1.
Qed.

Lemma acts_inv_ok_nth acts invs s : acts_inv_ok p acts invs = true ->
  rats_inv_ok p (nth_row acts s) (nth_row invs s) = true /\
  nth_row (acts_zmod p acts invs) s = rats_zmod p (nth_row acts s) (nth_row invs s).
Proof.
  elim: acts invs s => [| a acts IH] [| i invs] [| s] //= /andP [Ha Has] //.
  exact: IH.
Qed.

Lemma relu_entry_rel inst batch (thi : list Z) (bi : list (list Z)) s k j :
  rats_pos (ri_theta inst) = true -> acts_pos batch = true ->
  rats_inv_ok p (ri_theta inst) thi = true -> acts_inv_ok p batch bi = true ->
  Rq (relu_jac_entry inst (nth_row batch s) k j)
     (zr (relu_entry_mod p (ri_widths inst)
            (relu_pattern_q (ri_widths inst) (ri_theta inst) (nth_row batch s))
            (rats_zmod p (ri_theta inst) thi) (nth_row (acts_zmod p batch bi) s) k j)).
Proof.
  move=> Hpos Hbpos Hth Hb.
  have Hz : rats_pos (nth_row batch s) = true.
    elim: batch s Hbpos {Hb} => [| z batch IH] [| s] //= /andP [Hz Hzs] //. exact: IH.
  have [Hzi ->] := acts_inv_ok_nth _ _ s Hb.
  have H := relu_masked_rel (arith_ring _ : arith {poly rat}) (arith_dmod p)
              RD RD0 RD1 RDadd RDmul (tl (ri_widths inst)) (first_width (ri_widths inst))
              (relu_pattern_q (ri_widths inst) (ri_theta inst) (nth_row batch s)) _ _ _ _
              (theta_line_rel _ _ 0 j Hth) (consts_rel _ _ Hzi).
  have [_ H1] := nth_rel RD k _ _ _ _ H RD0.
  by rewrite /relu_jac_entry deriv_at0 relu_pattern_eq.
Qed.

(** The shared step of every family: the entries of the mathematical Jacobian (output [k] at
    sample [s], parameter [j]) related to the residues the check computed, [r] labels in range,
    [r] columns in range and the minor invertible mod p. *)
Lemma lower_generic m dout n r (entryQ : nat -> nat -> nat -> rat)
    (entryP : nat -> nat -> nat -> Z) (rows : list (nat * nat)) (cols : list nat) :
  (forall s k j, (s < m)%N -> (k < dout)%N -> Rq (entryQ s k j) (zr (entryP s k j))) ->
  length rows = r -> length cols = r -> rows_in_range m dout rows = true ->
  all_lt n cols = true -> minor_invertible p r (minor_of entryP rows cols) = true ->
  (r <= \rank (\matrix_(i < m * dout, j < n) entryQ (i %/ dout) (i %% dout) j))%N.
Proof.
  move=> HR Hlr Hlc Hrange Hcols Hinv.
  apply: (@lower_from_minor _ _ r (fun i j => entryQ (i %/ dout) (i %% dout) j)
            (fun a => fst (List.nth a rows (0, 0)) * dout + snd (List.nth a rows (0, 0)))%N
            (fun b => List.nth b cols 0%N) (minor_of entryP rows cols)).
  - move=> a Ha. rewrite -Hlr in Ha. have [H1 H2] := rows_in_range_nth _ _ _ _ Hrange Ha.
    exact: row_index_lt.
  - move=> b Hb. rewrite -Hlc in Hb. exact: all_lt_nth.
  - move=> a b Ha Hb. rewrite -Hlr in Ha. rewrite -Hlc in Hb.
    have [H1 H2] := rows_in_range_nth _ _ _ _ Hrange Ha.
    have [E1 E2] := @row_index (fst (List.nth a rows (0, 0)%N)) _ _ H2.
    rewrite minor_of_nth // E1 E2. exact: HR.
  - exact: Hinv.
Qed.

End ModP.

(** [check_rank_lower_meaning = true]: the Jacobian of [theta -> (f_theta(x_s))_s] at the
    instance, defined by derivatives of the network over [{poly rat}], has rank [>= r] over Q. *)
Theorem mlp_rank_lower_meaning inst w r :
  check_rank_lower_meaning inst w r = true ->
  (r <= \rank (mlp_jacobian inst (lw_samples w)))%N.
Proof.
  rewrite /check_rank_lower_meaning.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [/andP [Hp Hth] Hac] /Nat.eqb_eq Hlr]
    /Nat.eqb_eq Hlc] Hrange] Hcols] Hinv].
  have Hp1 : (1 < lw_p w)%Z by move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? _].
  rewrite /mlp_minor_mod in Hinv. rewrite /mlp_jacobian.
  apply: (@lower_generic (lw_p w) Hp1 _ _ _ r
            (fun s k j => mlp_jac_entry inst (nth_row (lw_samples w) s) k j) _ _ _ _
            Hlr Hlc Hrange Hcols Hinv) => s k j _ _.
  exact: mlp_entry_rel.
Qed.

(** [check_rank_lower_resnet_meaning = true]: the Jacobian of [theta -> (F_theta(x_s))_s] of
    the ResNet at the instance, defined by derivatives over [{poly rat}], has rank [>= r]. *)
Theorem resnet_rank_lower_meaning inst w r :
  check_rank_lower_resnet_meaning inst w r = true ->
  (r <= \rank (resnet_jacobian inst (lw_samples w)))%N.
Proof.
  rewrite /check_rank_lower_resnet_meaning.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [/andP [Hp Hth] Hac] /Nat.eqb_eq Hlr]
    /Nat.eqb_eq Hlc] Hrange] Hcols] Hinv].
  have Hp1 : (1 < lw_p w)%Z by move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? _].
  rewrite /resnet_minor_mod in Hinv. rewrite /resnet_jacobian.
  apply: (@lower_generic (lw_p w) Hp1 _ _ _ r
            (fun s k j => resnet_jac_entry inst (nth_row (lw_samples w) s) k j) _ _ _ _
            Hlr Hlc Hrange Hcols Hinv) => s k j _ _.
  exact: resnet_entry_rel.
Qed.

(** [check_relu_rank_lower_meaning = true]: no batch point lies on a bent hyperplane, and the
    Jacobian of [theta -> (F_theta(z))_(z in batch)] at the instance (each point's pattern
    fixed, the network near [theta]) has rank [>= r] over Q. *)
Theorem relu_rank_lower_meaning inst w r :
  check_relu_rank_lower_meaning inst w r = true ->
  relu_batch_generic inst (rl_batch w) /\
  (r <= \rank (relu_jacobian inst (rl_batch w)))%N.
Proof.
  rewrite /check_relu_rank_lower_meaning.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [/andP [/andP [/andP [/andP
    [Hp Hpos] Hbpos] Hnz] Hth] Hb] /Nat.eqb_eq Hlr] /Nat.eqb_eq Hlc] Hrange] Hcols] Hinv].
  have Hp1 : (1 < rl_p w)%Z by move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? _].
  split.
  - move=> z Hz. apply: relu_nonzero_sound => //.
    + elim: (rl_batch w) Hbpos Hz => [| z0 b IH] /=; first by move=> _ [].
      move=> /andP [H0 H1] [E | Hz]; [by subst z0 | exact: IH].
    + move: Hnz => /forallb_forall. apply. exact: Hz.
  - rewrite /relu_minor_mod in Hinv. rewrite /relu_jacobian.
    apply: (@lower_generic (rl_p w) Hp1 _ _ _ r
              (fun s k j => relu_jac_entry inst (nth_row (rl_batch w) s) k j) _ _ _ _
              Hlr Hlc Hrange Hcols Hinv) => s k j _ _.
    exact: relu_entry_rel.
Qed.

(** * The upper bound at theta of an MLP rank certificate, in mathematical terms *)

(** The parameters [theta + t v] as polynomials in [t] ([v] padded with zeros). *)
Fixpoint dir_line (th : list (Z * Z)) (v : list Z) : list {poly rat} :=
  match th, v with
  | nil, _ => nil
  | t :: th', x :: v' => ((q_of t)%:P + (zr x)%:P * 'X) :: dir_line th' v'
  | t :: th', nil => (q_of t)%:P :: dir_line th' nil
  end.

(** [d(theta -> f_theta(x)[k])(theta)(v)]: the derivative at [t = 0] of the polynomial
    [t -> f_(theta + t v)(x)[k]] (the differential at [theta] applied to [v]). *)
Definition mlp_dir_deriv (inst : rank_instance) (x v : list Z) (k : nat) : rat :=
  let P := List.nth k (mlp_value (arith_ring _ : arith {poly rat}) (widths inst)
             (List.map (List.map (fun c => (q_of c)%:P)) (acts inst)) (bias inst)
             (dir_line (theta inst) v) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

(** The tangents as the rows of a rational matrix. *)
Definition tangent_matrix (ts : list (list Z)) (n : nat) : 'M[rat]_(length ts, n) :=
  \matrix_(i, j) zr (List.nth j (nth_row ts i) 0%Z).

(** A polynomial and an exact dual rational agree on the coefficients of [1] and [t]. *)
Definition RDQ (P : {poly rat}) (a : (Z * Z) * (Z * Z)) : Prop :=
  RQ (P`_0) (fst a) /\ RQ (P`_1) (snd a).

Lemma RDQ0 : RDQ 0 ((0, 1), (0, 1))%Z.
Proof. rewrite /RDQ !coef0. split; exact: RQ0. Qed.

Lemma RDQ1 : RDQ 1 ((1, 1), (0, 1))%Z.
Proof. rewrite /RDQ !coef1 /=. split; [exact: RQ1 | exact: RQ0]. Qed.

Lemma RDQadd P Q x y : RDQ P x -> RDQ Q y -> RDQ (P + Q) (add (arith_dual arith_q) x y).
Proof. move=> [H0 H1] [K0 K1]. rewrite /RDQ /= !coefD. split; exact: RQadd. Qed.

Lemma RDQmul P Q x y : RDQ P x -> RDQ Q y -> RDQ (P * Q) (mul (arith_dual arith_q) x y).
Proof.
  move=> [H0 H1] [K0 K1]. rewrite /RDQ /= coefM0 coefM1.
  split; [exact: RQmul|]. apply: RQadd; exact: RQmul.
Qed.

Lemma RQ_int z : RQ (zr z) (z, 1)%Z.
Proof. split; [done|]. by rewrite /q_of /= zr1 divr1. Qed.

Lemma dir_line_rel th v : rats_pos th = true -> Forall2 RDQ (dir_line th v) (dir_line_q th v).
Proof.
  elim: th v => [| t th IH] [| x v] //= /andP [/Z.ltb_lt Ht Hth]; constructor; auto.
  - rewrite /RDQ /= !coefC /=. split; [by split | exact: RQ0].
  - rewrite /RDQ /= !coefD !coefC !coefMX /= addr0 add0r coefC /=. split; [by split|].
    exact: RQ_int.
Qed.

Lemma acts_rel_q acts : acts_pos acts = true ->
  Forall2 (Forall2 RDQ) (List.map (List.map (fun c => (q_of c)%:P)) acts)
    (List.map (List.map (fun c => (c, (0, 1)%Z))) acts).
Proof.
  elim: acts => [| a acts IH] //= /andP [Ha Hacts]. constructor; [| exact: IH].
  elim: a Ha {IH Hacts} => [| c a IHa] //= /andP [/Z.ltb_lt Hc Ha]. constructor; [| exact: IHa].
  rewrite /RDQ /= !coefC /=. split; [by split | exact: RQ0].
Qed.

Lemma ints_rel_q x : Forall2 RDQ (List.map (fun z => (zr z)%:P) x)
  (List.map (fun z => ((z, 1), (0, 1))%Z) x).
Proof.
  elim: x => [| z x IH] //=. constructor; [| exact: IH].
  rewrite /RDQ /= !coefC /=. split; [exact: RQ_int | exact: RQ0].
Qed.

Lemma nth_z_nth xs j : nth_z xs j = List.nth j xs 0%Z.
Proof. by elim: xs j => [| x xs IH] [| j] //=. Qed.

(** [check_rank_upper_meaning = true]: [u + s = #params]; the [s] tangents are linearly
    independent over Q; and each lies in the kernel of the differential of
    [theta -> f_theta(x)] at the instance's [theta] for every [x] of the lattice
    [{x in N^d0 : |x| <= D}], [D] the degree of [f] in [x]. (That this lattice is unisolvent,
    so the differential vanishes on [v] at every input and the rank at [theta] is [<= u], is
    cited.) *)
Theorem mlp_rank_upper_meaning inst w u :
  check_rank_upper_meaning inst w u = true ->
  Nat.add u (length (uw_tangents w)) = length (theta inst) /\
  \rank (tangent_matrix (uw_tangents w) (length (theta inst))) = length (uw_tangents w) /\
  (forall v, In v (uw_tangents w) ->
   forall x, In x (lattice (first_width (widths inst)) (degree_bound (acts inst))) ->
   forall k, mlp_dir_deriv inst x v k = 0).
Proof.
  rewrite /check_rank_upper_meaning.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [/andP [/andP [Ht Ha] /Nat.eqb_eq Hu] Hlen]
    Hp] /Nat.eqb_eq Hlc] Hcols] Hkill] Hinv].
  split; [exact: Hu|]. split.
  - apply/eqP. rewrite eqn_leq rank_leq_row /=.
    have Hp1 : (1 < uw_p w)%Z by move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? _].
    rewrite /tangent_matrix.
    apply: (@lower_from_minor (uw_p w) Hp1 _ _ _ (fun i j => zr (List.nth j (nth_row (uw_tangents w) i) 0%Z))
              (fun a => a) (fun b => List.nth b (uw_cols w) 0%N) _ _ _ _ Hinv) => //.
    + move=> b Hb. rewrite -Hlc in Hb. exact: all_lt_nth.
    + move=> a b Ha' Hb. rewrite -Hlc in Hb.
      rewrite /tangent_minor !nth_row_nth (nth_map_lt _ _ _ nil) //.
      rewrite (nth_map_lt _ _ _ 0%N) // nth_z_nth. exact: Rq_int.
  - move=> v Hv x Hx k.
    have H := mlp_value_rel (arith_ring _ : arith {poly rat}) (arith_dual arith_q) RDQ
                RDQ0 RDQ1 RDQadd RDQmul (widths inst) _ _ (bias inst) _ _ _ _
                (acts_rel_q _ Ha) (dir_line_rel _ v Ht) (ints_rel_q x).
    have [_ [_ H1]] := nth_rel RDQ k _ _ _ _ H RDQ0.
    rewrite /mlp_dir_deriv deriv_at0 H1 /q_of.
    have -> : fst (snd (List.nth k (mlp_dir_q inst x v) ((0, 1), (0, 1))%Z)) = 0%Z.
      case: (nth_in_or_default k (mlp_dir_q inst x v) ((0, 1), (0, 1))%Z) => [Hin | ->] //.
      move: Hkill => /forallb_forall /(_ v Hv) /forallb_forall /(_ x Hx) /forallb_forall.
      move=> /(_ _ Hin) /Z.eqb_eq. done.
    by rewrite zr0 mul0r.
Qed.
