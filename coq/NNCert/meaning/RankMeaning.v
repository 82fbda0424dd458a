(** What a rank certificate means (MathComp 1.15): the Jacobian of [theta -> (f_theta(x_s))_s]
    defined mathematically, and the vocabulary the soundness proofs (ElimSound.v, RankSound.v,
    UpperSound.v, UpperSoundReLU.v) state and prove the rank bounds in.
    - [zr : Z -> R] is the ring morphism from Coq's integers to any ring; [q_of (n, d) = n/d].
    - The network is evaluated over the polynomial ring [{poly rat}] at the parameters
      [theta + t e_j] ([theta_line]); the Jacobian entry is the derivative at [t = 0] of the
      polynomial [t -> f_(theta + t e_j)(x)[k]] ([mlp_jac_entry], [resnet_jac_entry],
      [relu_jac_entry]), which is its coefficient of [t] ([deriv_at0]). Nothing here depends
      on how the checkers compute.
    - [RQ q a]: the exact rational pair [a] (positive denominator) denotes [q]; [Rq q a]:
      [q] (rational) and [a] (in [Z/p]) are [n/d] and [n d^-1] for integers [n, d] with [d] a
      unit mod p. Both respect [0, 1, +, *] (and [Rq] the determinant): a unit determinant mod
      p forces a nonzero rational one ([Rq_det], [Rq_nonzero]), and an invertible [r x r]
      minor gives [r <= \rank] ([rank_of_minor]).
    No axioms: MathComp's [rat], [poly] and matrices are constructive. *)
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

(** [J] has an invertible [r x r] minor (rows [f], columns [g]). *)
Definition unit_minor {m n : nat} (r : nat) (J : 'M[rat]_(m, n)) : Prop :=
  exists (f : 'I_r -> 'I_m) (g : 'I_r -> 'I_n), mxsub f g J \in unitmx.

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

Lemma rank_of_unit_minor m n r (J : 'M[rat]_(m, n)) : unit_minor r J -> (r <= \rank J)%N.
Proof. move=> [f [g U]]. exact: (@rank_of_minor _ _ _ _ f g U). Qed.

(** * Indices *)

(** Rows of length [m]: row [a] has length [m]. *)
Lemma rows_len_nth {A : Type} m (rows : list (list A)) a :
  rows_len m rows = true -> (a < length rows)%N -> length (nth_row rows a) = m.
Proof.
  elim: rows a => [| row rows IH] [| a] //= /andP [/Nat.eqb_eq H1 H2] Ha //.
  exact: IH.
Qed.

Lemma nth_row_nth {A : Type} (rows : list (list A)) i : nth_row rows i = List.nth i rows nil.
Proof. by elim: rows i => [| r rows IH] [| i] //=. Qed.


Lemma nth_map_lt {A B : Type} (f : A -> B) (l : list A) n d d' :
  (n < length l)%N -> List.nth n (List.map f l) d' = f (List.nth n l d).
Proof. elim: l n => [| x l IH] [| n] //= H. exact: IH. Qed.

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

(** * Rationals and residues mod p *)

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

(** [num/den ~ num * inv mod p] when [den > 0] and [den * inv = 1 (mod p)]. *)
Lemma Rf_rat v inv : rat_inv_ok p v inv = true ->
  Rq (q_of v) (zr ((fst v mod p) * (inv mod p) mod p)%Z).
Proof.
  rewrite /rat_inv_ok => /andP [/Z.ltb_lt Hd /Z.eqb_eq Hi].
  rewrite zr_mod zrM !zr_mod.
  have Hinv : zr (snd v) * zr inv = 1 :> 'Z_pn.
    by rewrite -zrM -zr_mod Z.mul_mod ?Hi ?zr1 //; lia.
  exists (fst v), (snd v). split; [| split].
  - rewrite /q_of mulfVK //. apply/eqP => /zr_eq0. lia.
  - by rewrite -mulrA [zr inv * _]mulrC Hinv mulr1.
  - apply/unitrPr. by exists (zr inv).
Qed.

End ModP.

(** The tangents as the rows of a rational matrix. *)
Definition tangent_matrix (ts : list (list Z)) (n : nat) : 'M[rat]_(length ts, n) :=
  \matrix_(i, j) zr (List.nth j (nth_row ts i) 0%Z).

(** An integer is the exact rational [(z, 1)]. *)
Lemma RQ_int z : RQ (zr z) (z, 1)%Z.
Proof. split; [done|]. by rewrite /q_of /= zr1 divr1. Qed.
