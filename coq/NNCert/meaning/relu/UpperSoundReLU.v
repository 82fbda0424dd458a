(** The upper bound of a ReLU rank certificate (issue 15, phase 2; MathComp 1.15).
    [check_relu_rank_upper inst batch w u = true] (ReLU.v) and [p = uw_p w] prime give
    [\rank (relu_jacobian inst batch) <= u] over Q ([relu_jacobian]: RankMeaning.v, the
    Jacobian of [theta -> (F_theta(z))_(z in batch)] with each point's activation pattern fixed).
    The mathematics. For a batch point [z], an output [k] and an integer tangent [t], the kernel
    computes the row [g = d F_k(z) / d theta] by reverse mode over the exact pairs [arith_q],
    with the pattern [pattern_of (relu_eval theta z)] of [z] fixed, and checks [g . t = 0]
    exactly ([tangents_vanish_relu], [outputs_kill], [grad_kills]).
    - The pairs compute rationals: the relation [RQ] ("the pair [(n, d)], [d > 0], is [n/d]")
      respects [0, 1, +, *] ([RQ0], [RQ1], [RQadd], [RQmul]), so ([relu_back_rel], [dot_rel])
      the pair row is related to reverse mode over [arith_ring rat] at [q_of theta], [q_of z],
      and [g . t] over the pairs is related to the rational [g . t]; a pair with numerator [0]
      is the rational [0].
    - Reverse mode over [rat] computes the derivatives ([relu_backprop]), and the kernel's
      pattern is the mathematical one ([pattern_of_relu_eval], [relu_pattern_eq]); so the
      rational row is row [(z, k)] of [relu_jacobian] ([relu_jac_entry_back]).
    Hence [J T^T = 0] for the matrix [T] of the tangents ([relu_jacobian_kills]); the tangents
    are independent over Q ([independent_mod] and [p] prime: [\rank T = s]), so the rank of
    [J] is at most [n - s = u] ([relu_rank_upper_sound]; with [batch_nonzero], no batch
    point on a bent hyperplane: [relu_rank_upper_meaning]). Axioms: only those of Coq's
    primitive integers (Uint63), through [check_minor_unit]. *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian RankMeaning.
From NNCert Require Import Backprop ReverseModeRel ElimSound UpperSound.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg poly matrix mxalgebra zmodp rat ssrnum div.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(** Exact rational arithmetic as an [arith]. *)
Local Notation arQ := (arith_ring _ : arith rat).

(** The integer a primitive integer stands for. *)
Local Notation "'φ' x" := (Uint63.to_Z x) (at level 0).

(** * The exact check *)

(** [grad_kills g' ts]: every tangent [t] of [ts] is orthogonal to the rational row [g]
    related to the pairs [g'], [sum_j g[j] t[j] = 0] over Q. *)
(** [dot_nz] (ReLU.v) skips the entries where [t] is [0]; it stands for the same rational as
    the full dot product, since those terms are [g[j] * 0 = 0]. *)
Lemma dot_nz_rel (g : list rat) g' t : Forall2 RQ g g' ->
  RQ (dot arQ g (List.map zr t)) (dot_nz g' t).
Proof.
  move=> Hg. elim: Hg t => [| x x' g0 g0' Hx Hg IH] [| y t] /=; try exact: RQ0.
  case: (Z.eqb_spec y 0) => [-> | _].
  - by rewrite zr0 mulr0 add0r; exact: IH.
  - apply: RQadd; [apply: RQmul; [exact: Hx | exact: RQ_int] | exact: IH].
Qed.

Lemma grad_kills_sound (g : list rat) g' ts t : Forall2 RQ g g' ->
  grad_kills g' ts = true -> In t ts -> dot arQ g (List.map zr t) = 0.
Proof.
  move=> Hg. elim: ts => [| t0 ts IH] //= /andP [/Z.eqb_eq H0 Hts] [E | Hin].
  - subst t0. have [_ ->] := dot_nz_rel _ _ t Hg. by rewrite /q_of H0 zr0 mul0r.
  - exact: IH.
Qed.

(** [outputs_kill ... k count] checks the outputs [k <= k' < k + count]. *)
Lemma outputs_kill_nth inst pats x ts k count k' :
  outputs_kill inst pats x ts k count = true -> (k <= k')%N -> (k' < k + count)%N ->
  grad_kills (fst (relu_back arith_q (first_width (ri_widths inst)) (tl (ri_widths inst))
                     pats (ri_theta inst) x k')) ts = true.
Proof.
  elim: count k => [| c IH] k /=; first by rewrite addn0 => _ H1 H2; move: (leq_trans H2 H1);
    rewrite ltnn.
  move=> /andP [Hk Hc] H1 H2. case: (ltngtP k k') H1 => [Hlt | // | E] _.
  - by apply: (IH k.+1 Hc Hlt); rewrite addSnnS.
  - by rewrite -E.
Qed.

(** [tangents_vanish_relu] checks every output at every batch point, the point's own pattern
    fixed. *)
Lemma tangents_vanish_relu_in inst batch ts x : tangents_vanish_relu inst batch ts = true ->
  In x batch ->
  outputs_kill inst (pattern_of (snd (relu_eval (ri_widths inst) (ri_theta inst) x))) x ts 0
    (last_width (ri_widths inst)) = true.
Proof.
  elim: batch => [| x0 batch IH] //= /andP [H0 Hb] [E | Hin]; [by subst x0 | exact: IH].
Qed.

(** * The Jacobian entries are reverse mode over Q *)

(** Entry [(z, k, j)] of the mathematical Jacobian is entry [j] of reverse mode over
    [arith_ring rat] at [q_of theta], [q_of z] with the kernel's pattern of [z]. *)
Lemma relu_jac_entry_back inst z k j :
  rats_pos (ri_theta inst) = true -> rats_pos z = true ->
  length (ri_theta inst) = n_params (ri_widths inst) true ->
  length z = first_width (ri_widths inst) ->
  relu_jac_entry inst z k j =
  List.nth j (fst (relu_back arQ (first_width (ri_widths inst)) (tl (ri_widths inst))
                     (pattern_of (snd (relu_eval (ri_widths inst) (ri_theta inst) z)))
                     (List.map q_of (ri_theta inst)) (List.map q_of z) k)) 0.
Proof.
  move=> Hth Hz Lth Lz.
  rewrite relu_backprop ?map_length //; last exact: relu_eval_fit.
  rewrite /relu_jac_entry deriv_at0 relu_pattern_eq // -pattern_of_relu_eval.
  by rewrite theta_line_line List.map_map.
Qed.

(** The exact check at a batch point [z]: for an output [k < d_out] and a tangent [t] of length
    [n] (the number of parameters), [sum_j J_(z,k)[j] t[j] = 0] over Q. *)
Lemma relu_row_kills inst z ts t k :
  rats_pos (ri_theta inst) = true -> rats_pos z = true ->
  length (ri_theta inst) = n_params (ri_widths inst) true ->
  length z = first_width (ri_widths inst) ->
  outputs_kill inst (pattern_of (snd (relu_eval (ri_widths inst) (ri_theta inst) z))) z ts 0
    (last_width (ri_widths inst)) = true ->
  (k < last_width (ri_widths inst))%N -> In t ts -> length t = length (ri_theta inst) ->
  \sum_(j < length (ri_theta inst)) relu_jac_entry inst z k j * zr (List.nth j t 0%Z) = 0.
Proof.
  move=> Hth Hz Lth Lz Hkill Hk Ht Lt.
  have Hg := outputs_kill_nth _ _ _ _ _ _ k Hkill (leq0n k) Hk.
  have Hrel := relu_back_rel arQ arith_q RQ RQ0 RQ1 RQadd RQmul
                 (tl (ri_widths inst)) (first_width (ri_widths inst))
                 (pattern_of (snd (relu_eval (ri_widths inst) (ri_theta inst) z)))
                 _ _ _ _ k (rats_rel _ Hth) (rats_rel _ Hz).
  have H0 := grad_kills_sound _ _ _ _ Hrel Hg Ht.
  rewrite (dot_sum _ _ _ (length (ri_theta inst))) ?map_length // in H0.
  rewrite -[RHS]H0. apply: eq_bigr => j _.
  by rewrite relu_jac_entry_back // nth_map_zr.
Qed.

(** [rows_len n rows]: every row has length [n]. *)
Lemma rows_len_in {A : Type} n (rows : list (list A)) r :
  rows_len n rows = true -> In r rows -> length r = n.
Proof.
  elim: rows => [| r0 rows IH] //= /andP [/Nat.eqb_eq H0 H] [E | Hin]; [by subst r0 | exact: IH].
Qed.

(** [acts_pos]: every batch point has positive denominators. *)
Lemma acts_pos_in batch z : acts_pos batch = true -> In z batch -> rats_pos z = true.
Proof. elim: batch => [| z0 b IH] //= /andP [H0 H1] [E | Hin]; [by subst z0 | exact: IH]. Qed.

(** [relu_shape_ok]'s conjuncts used here: positive denominators of theta and of the batch. *)
Lemma relu_shape_ok_pos widths th batch : relu_shape_ok widths th batch = true ->
  rats_pos th = true /\ acts_pos batch = true.
Proof. by rewrite /relu_shape_ok => /andP [/andP [/andP [_ ->] _] ->]. Qed.

(** Every tangent of the batch check is in the kernel of the Jacobian: [J T^T = 0], [T] the
    matrix whose rows are the tangents (RankMeaning.v [tangent_matrix]). *)
Theorem relu_jacobian_kills inst batch ts :
  relu_shape_ok (ri_widths inst) (ri_theta inst) batch = true ->
  rows_len (length (ri_theta inst)) ts = true ->
  tangents_vanish_relu inst batch ts = true ->
  relu_jacobian inst batch *m (tangent_matrix ts (length (ri_theta inst)))^T = 0.
Proof.
  move=> Hshape Hlen Hvan. have [Lth [Lb _]] := relu_shape_ok_lengths _ _ _ Hshape.
  have [Hth Hbpos] := relu_shape_ok_pos _ _ _ Hshape.
  apply/matrixP => i a. rewrite !mxE.
  have Hd : (0 < last_width (ri_widths inst))%N.
  { move: (ltn_ord i); move: (i : nat) => i'. by case: (last_width _) => [|d] //; rewrite muln0. }
  set dout := last_width (ri_widths inst) in Hd *.
  have Hs : (i %/ dout < length batch)%N by rewrite ltn_divLR.
  have Hz := nth_row_In _ _ Hs.
  have Ha : In (nth_row ts a) ts by apply: nth_row_In.
  rewrite -[RHS](relu_row_kills inst (nth_row batch (i %/ dout)) ts (nth_row ts a) (i %% dout))
    //; last first.
  - exact: (rows_len_in _ _ _ Hlen Ha).
  - by rewrite ltn_mod.
  - exact: (tangents_vanish_relu_in _ _ _ _ Hvan Hz).
  - exact: (rows_len_in _ _ _ Lb Hz).
  - exact: (acts_pos_in _ _ Hbpos Hz).
  apply: eq_bigr => j _. by rewrite !mxE.
Qed.

(** The kernel's [batch_nonzero]: no batch point lies on a bent hyperplane, so near [theta] the
    network at each batch point is the polynomial network with that point's pattern, and
    [relu_jacobian] is the Jacobian of [theta -> (F_theta(z))_(z in batch)] itself. *)
Lemma relu_batch_generic_of_check inst batch :
  relu_shape_ok (ri_widths inst) (ri_theta inst) batch = true ->
  batch_nonzero (ri_widths inst) (ri_theta inst) batch = true ->
  relu_batch_generic inst batch.
Proof.
  move=> Hshape /batch_nonzero_q Hnz z Hz.
  have [Hth Hbpos] := relu_shape_ok_pos _ _ _ Hshape.
  apply: relu_nonzero_sound => //; first exact: (acts_pos_in _ _ Hbpos Hz).
  by move: Hnz => /forallb_forall; apply.
Qed.

(** The conjuncts of [check_relu_rank_upper] ([n] parameters, [s] tangents). *)
Lemma check_relu_rank_upper_parts inst batch w u :
  check_relu_rank_upper inst batch w u = true ->
  relu_shape_ok (ri_widths inst) (ri_theta inst) batch = true /\
  batch_nonzero (ri_widths inst) (ri_theta inst) batch = true /\
  Nat.add u (length (uw_tangents w)) = length (ri_theta inst) /\
  rows_len (length (ri_theta inst)) (uw_tangents w) = true /\
  tangents_vanish_relu inst batch (uw_tangents w) = true /\
  independent_mod (uw_p w) (length (ri_theta inst)) (uw_tangents w) (uw_cols w) = true.
Proof.
  rewrite /check_relu_rank_upper.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [Hs Hnz] /Nat.eqb_eq Hu] Hlen] _] Hvan] Hind].
  by [].
Qed.

(** [check_relu_rank_upper] with independent tangents ([\rank T = s]): [J T^T = 0] gives
    [\rank J + s <= n = u + s] ([rank_le_of_kernel]), so [\rank J <= u]. *)
Lemma relu_rank_upper_of_rank inst batch w u :
  check_relu_rank_upper inst batch w u = true ->
  \rank (tangent_matrix (uw_tangents w) (length (ri_theta inst))) = length (uw_tangents w) ->
  (\rank (relu_jacobian inst batch) <= u)%N.
Proof.
  move=> /check_relu_rank_upper_parts [Hs [_ [Hu [Hlen [Hvan _]]]]] Hr.
  have K := rank_le_of_kernel _ _ _ _ _ _ (relu_jacobian_kills _ _ _ Hs Hlen Hvan) Hr.
  by rewrite -(leq_add2r (length (uw_tangents w))); apply: leq_trans K _; rewrite -Hu.
Qed.

(** [check_relu_rank_upper] with the tangents' [s x s] minor (columns [uw_cols w]) a unit
    matrix of residues mod [p]: the tangents are independent over Q
    ([independent_rank_of_minor]), so [\rank J <= u]. *)
Lemma relu_rank_upper_of_unit inst batch w u :
  check_relu_rank_upper inst batch w u = true ->
  (\matrix_(a < length (uw_tangents w), b < length (uw_tangents w))
     zr (φ (nth_int (List.nth a (List.map (ints_mod (uw_p w)) (uw_tangents w)) nil)
                    (List.nth b (uw_cols w) 0%N)))
     : 'M['Z_(Z.to_nat (uw_p w))]_(length (uw_tangents w))) \in unitmx ->
  (\rank (relu_jacobian inst batch) <= u)%N.
Proof.
  move=> H U. apply: (relu_rank_upper_of_rank _ _ _ _ H).
  have [_ [_ [_ [_ [_ Hind]]]]] := check_relu_rank_upper_parts _ _ _ _ H.
  move: Hind; rewrite /independent_mod /check_minor.
  move=> /andP [Hp /andP [/andP [/andP [_ /Nat.eqb_eq Hlc] Hcols] _]].
  exact: (independent_rank_of_minor (uw_p w) _ _ _ Hp Hlc Hcols U).
Qed.

(** The upper bound of a ReLU rank certificate: if the kernel's check succeeds and [p] is
    prime, the Jacobian at [theta] of [theta -> (F_theta(z))_(z in batch)] (each batch point's
    activation pattern fixed) has rank [<= u] over Q. The kernel's elimination mod the prime
    [p] makes the tangents' minor a unit over [Z/p] ([check_minor_unit]), so the tangents are
    independent over Q, and they are in the kernel of the Jacobian ([relu_jacobian_kills]). *)
Theorem relu_rank_upper_sound inst batch w u :
  check_relu_rank_upper inst batch w u = true -> prime_ok (uw_p w) = true ->
  (\rank (relu_jacobian inst batch) <= u)%N.
Proof.
  move=> H Hpr. apply: (relu_rank_upper_of_unit _ _ _ _ H).
  have [_ [_ [_ [_ [_ Hind]]]]] := check_relu_rank_upper_parts _ _ _ _ H.
  move: Hind; rewrite /independent_mod => /andP [Hp Hmin].
  exact: (check_minor_unit _ Hp _ _ _ _ Hpr Hmin).
Qed.

(** [relu_rank_upper_sound] with the genericity of the batch: no batch point lies on a bent
    hyperplane, so [relu_jacobian] is the Jacobian of [theta -> (F_theta(z))_(z in batch)]
    at [theta] (the network is the fixed-pattern polynomial network near [theta]). *)
Corollary relu_rank_upper_meaning inst batch w u :
  check_relu_rank_upper inst batch w u = true -> prime_ok (uw_p w) = true ->
  relu_batch_generic inst batch /\ (\rank (relu_jacobian inst batch) <= u)%N.
Proof.
  move=> H Hpr. split; last exact: (relu_rank_upper_sound _ _ _ _ H Hpr).
  have [Hs [Hnz _]] := check_relu_rank_upper_parts _ _ _ _ H.
  exact: relu_batch_generic_of_check.
Qed.
