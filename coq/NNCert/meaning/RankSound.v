(** What a rank certificate means, proved from the kernel's own check (MathComp 1.15): each
    family's shipped lower-bound check ([check_rank_lower], [check_rank_lower_resnet],
    [check_relu_rank_lower]: reverse-mode rows mod p on primitive integers and fraction-free
    elimination, RankCore.v), together with [prime_ok p], implies [r <= \rank] over Q of the
    Jacobian defined mathematically in RankMeaning.v (entries: derivatives at [t = 0] of the
    network evaluated over [{poly rat}] at [theta + t e_j]).
    The chain, entry by entry: the kernel's row over [Z/p] on primitive integers is related by
    [RK] (ElimSound.v: [q = n/d] over Q, [x = n d^-1 mod p]) to the same reverse pass over
    [rat] (parametricity, ReverseModeRel.v); that pass computes the derivatives (Backprop.v,
    BackpropResNet.v). The elimination's success makes the minor of residues a unit matrix over
    [Z/p] (ElimSound.v, [check_minor_unit]); [RK] respects the Leibniz determinant, so the
    rational minor has a nonzero determinant and the Jacobian has rank at least [r]
    ([lower_from_unit]).
    Assumptions: the specification axioms of Coq's primitive integers (Uint63.v: add_spec,
    mul_spec, mod_spec, ...), which say what the kernel's native int63 operations compute;
    nothing else (MathComp's [rat], [poly] and matrices are constructive). *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian RankMeaning Backprop BackpropResNet ReverseModeRel ElimSound.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop perm ssralg poly matrix mxalgebra zmodp rat ssrnum div.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Sound.
Variable p : Z.
Hypothesis Hp : p_ok p = true.
Local Notation pn := (Z.to_nat p).

(** An [r x r] minor of [J] (rows [rowf a], columns [colf b]) related entrywise to a unit
    matrix over [Z/p]: its rational determinant is nonzero, so [J] has an invertible
    [r x r] minor ([unit_minor], hence [r <= \rank J] by [rank_of_unit_minor]). *)
Lemma lower_from_unit m n r (Jf : nat -> nat -> rat) (rowf colf : nat -> nat)
    (A : 'M['Z_pn]_r) :
  (forall a, (a < r)%N -> (rowf a < m)%N) -> (forall b, (b < r)%N -> (colf b < n)%N) ->
  (forall a b : 'I_r, Rq p (Jf (rowf a) (colf b)) (A a b)) -> A \in unitmx ->
  unit_minor r (\matrix_(i < m, j < n) Jf i j).
Proof.
  move=> Hr Hc HR U.
  exists (fun a : 'I_r => Ordinal (Hr a (ltn_ord a))), (fun b : 'I_r => Ordinal (Hc b (ltn_ord b))).
  rewrite unitmxE unitfE. apply: (@Rq_nonzero p _ (\det A)).
  - apply: Rq_det => a b. rewrite !mxE. exact: HR.
  - by rewrite -unitmxE.
Qed.

(** The shared step of every family: the kernel's rows [entryK s k] (residues of output [k] at
    sample [s]) related entrywise to the mathematical Jacobian [entryQ], and the shared core's
    success: an invertible [r x r] minor of the Jacobian. *)
Lemma lower_core m dout n r (entryQ : nat -> nat -> nat -> rat)
    (entryK : nat -> nat -> list int) (labels : list (nat * nat)) (cols : list nat) :
  (forall s k j, (s < m)%N -> (k < dout)%N ->
     Rq p (entryQ s k j) (zr (Uint63.to_Z (nth_int (entryK s k) j)))) ->
  prime_ok p = true ->
  check_rank_core p n m dout labels (List.map (fun l => entryK (fst l) (snd l)) labels) cols r
    = true ->
  unit_minor r (\matrix_(i < m * dout, j < n) entryQ (i %/ dout) (i %% dout) j).
Proof.
  move=> HR Hpr /andP [/andP [/andP [_ /Nat.eqb_eq Hlr] Hrange] Hmin].
  have U := check_minor_unit p Hp _ _ _ _ Hpr Hmin.
  move: Hmin => /andP [/andP [/andP [_ /Nat.eqb_eq Hlc] Hcols] _].
  apply: (@lower_from_unit _ _ r (fun i j => entryQ (i %/ dout) (i %% dout) j)
            (fun a => fst (List.nth a labels (0, 0)) * dout + snd (List.nth a labels (0, 0)))%N
            (fun b => List.nth b cols 0%N) _ _ _ _ U).
  - move=> a Ha. rewrite -Hlr in Ha. have [H1 H2] := rows_in_range_nth _ _ _ _ Hrange Ha.
    exact: row_index_lt.
  - move=> b Hb. rewrite -Hlc in Hb. exact: all_lt_nth.
  - move=> a b. have Ha : (a < length labels)%N by rewrite Hlr.
    have [H1 H2] := rows_in_range_nth _ _ _ _ Hrange Ha.
    have [E1 E2] := @row_index (fst (List.nth a labels (0, 0)%N)) _ _ H2.
    rewrite mxE E1 E2 (nth_map_lt _ _ _ (0, 0)%N) //. exact: HR.
Qed.

(** Entry [j] of the kernel's reverse-mode row mod p (output [k] at the integer input [x]) is
    the residue of the MLP Jacobian entry [d f(x)[k] / d theta_j]. *)
Lemma mlp_entry_sound inst (thi : list Z) (aci : list (list Z)) (x : list Z) k j :
  length (theta inst) = n_params (widths inst) (bias inst) ->
  length x = first_width (widths inst) ->
  rats_inv_ok p (theta inst) thi = true -> acts_inv_ok p (acts inst) aci = true ->
  Rq p (mlp_jac_entry inst x k j)
    (zr (Uint63.to_Z (nth_int (net_row (arith_mod (Uint63.of_Z p)) (widths inst)
       (acts_mod p (acts inst) aci) (bias inst) (rats_mod p (theta inst) thi) (ints_mod p x) k)
       j))).
Proof.
  move=> Hlt Hlx Hth Hac.
  have H := net_row_rel (arith_ring _ : arith rat) (arith_mod (Uint63.of_Z p)) (RK p) (RK0 p Hp) (RK1 p Hp) (RK_add p Hp) (RK_mul p Hp)
              (widths inst) _ _ (bias inst) _ _ _ _ k (RK_acts p Hp _ _ Hac)
              (RK_rats p Hp _ _ Hth) (RK_ints p Hp x).
  have [_ HR] := nth_rel (RK p) j _ _ _ _ H (RK0 p Hp).
  rewrite nth_int_nth -List_nth_nth. move: HR.
  rewrite mlp_backprop; last first.
  - by rewrite List.map_length.
  - by rewrite List.map_length.
  by rewrite -theta_line_line -acts_polyC -ints_polyC /mlp_jac_entry deriv_at0.
Qed.

(** The same for a ResNet. *)
Lemma resnet_entry_sound inst (thi : list Z) (aci : list (list Z)) (x : list Z) k j :
  length (rn_theta inst) = resnet_params (rn_width inst) (rn_acts inst) (rn_outer inst) ->
  length x = rn_width inst ->
  rats_inv_ok p (rn_theta inst) thi = true -> acts_inv_ok p (rn_acts inst) aci = true ->
  Rq p (resnet_jac_entry inst x k j)
    (zr (Uint63.to_Z (nth_int (resnet_row (arith_mod (Uint63.of_Z p)) (rn_width inst)
       (rn_outer inst) (acts_mod p (rn_acts inst) aci) (rats_mod p (rn_theta inst) thi)
       (ints_mod p x) k) j))).
Proof.
  move=> Hlt Hlx Hth Hac.
  have H := resnet_row_rel (arith_ring _ : arith rat) (arith_mod (Uint63.of_Z p)) (RK p)
              (RK0 p Hp) (RK1 p Hp) (RK_add p Hp) (RK_mul p Hp)
              (rn_width inst) (rn_outer inst) _ _ _ _ _ _ k (RK_acts p Hp _ _ Hac)
              (RK_rats p Hp _ _ Hth) (RK_ints p Hp x).
  have [_ HR] := nth_rel (RK p) j _ _ _ _ H (RK0 p Hp).
  rewrite nth_int_nth -List_nth_nth. move: HR.
  rewrite resnet_backprop; last first.
  - by rewrite List.map_length.
  - by rewrite List.map_length Hlt /resnet_params List.map_length.
  by rewrite -theta_line_line -acts_polyC -ints_polyC /resnet_jac_entry deriv_at0.
Qed.

(** Row [s] of related lists of lists are related. *)
Lemma nth_row_rel {A B : Type} (R : A -> B -> Prop) xs ys s :
  Forall2 (Forall2 R) xs ys -> Forall2 R (nth_row xs s) (nth_row ys s).
Proof. move=> H. elim: H s => [| x y xs' ys' Hxy _ IH] [| s] //=. Qed.

Lemma nth_row_map {A B : Type} (f : A -> B) (xs : list (list A)) s :
  nth_row (List.map (List.map f) xs) s = List.map f (nth_row xs s).
Proof. by elim: xs s => [| x xs IH] [| s] //=. Qed.

(** The same for a ReLU network at the rational input [z], the pattern [pats] fixed. *)
Lemma relu_entry_sound inst (thi : list Z) (batch : list (list (Z * Z))) (bi : list (list Z))
    s k j :
  length (ri_theta inst) = n_params (ri_widths inst) true ->
  length (nth_row batch s) = first_width (ri_widths inst) ->
  rats_pos (ri_theta inst) = true -> rats_pos (nth_row batch s) = true ->
  rats_inv_ok p (ri_theta inst) thi = true -> acts_inv_ok p batch bi = true ->
  Rq p (relu_jac_entry inst (nth_row batch s) k j)
    (zr (Uint63.to_Z (nth_int (fst (relu_back (arith_mod (Uint63.of_Z p))
       (first_width (ri_widths inst)) (tl (ri_widths inst))
       (relu_pattern_q (ri_widths inst) (ri_theta inst) (nth_row batch s))
       (rats_mod p (ri_theta inst) thi) (nth_row (acts_mod p batch bi) s) k)) j))).
Proof.
  move=> Hlt Hlx Hpos Hzpos Hth Hb.
  have Hz := nth_row_rel _ _ _ s (RK_acts p Hp _ _ Hb). rewrite nth_row_map in Hz.
  have H := relu_back_rel (arith_ring _ : arith rat) (arith_mod (Uint63.of_Z p)) (RK p)
              (RK0 p Hp) (RK1 p Hp) (RK_add p Hp) (RK_mul p Hp)
              (tl (ri_widths inst)) (first_width (ri_widths inst))
              (relu_pattern_q (ri_widths inst) (ri_theta inst) (nth_row batch s)) _ _ _ _ k
              (RK_rats p Hp _ _ Hth) Hz.
  have [_ HR] := nth_rel (RK p) j _ _ _ _ H (RK0 p Hp).
  rewrite nth_int_nth -List_nth_nth. move: HR.
  rewrite relu_backprop; first last.
  - rewrite /relu_pattern_q. exact: relu_pres_fit.
  - by rewrite List.map_length.
  - by rewrite List.map_length.
  rewrite -theta_line_line List.map_map.
  by rewrite /relu_jac_entry deriv_at0 relu_pattern_eq.
Qed.

End Sound.

(** [check_rank_lower = true] (the kernel's fast check: reverse mode and fraction-free
    elimination on primitive integers) and [p] prime: the Jacobian of
    [theta -> (f_theta(x_s))_s] at the instance, defined by derivatives of the network over
    [{poly rat}] (RankMeaning.v), has rank at least [r] over Q. *)
Theorem mlp_unit_minor_sound inst w r :
  check_rank_lower inst w r = true -> prime_ok (lw_p w) = true ->
  unit_minor r (mlp_jacobian inst (lw_samples w)).
Proof.
  rewrite /check_rank_lower.
  move=> /andP [/andP [/andP [/andP [Hshape Hp] Hth] Hac] Hcore] Hpr.
  have Hsh := Hshape. move: Hsh; rewrite /shape_ok.
  move=> /andP [/andP [/andP [/andP [/andP [_ _] _] _] /Nat.eqb_eq Hlt] Hrows].
  rewrite /mlp_jacobian.
  apply: (@lower_core (lw_p w) Hp _ _ _ r
            (fun s k j => mlp_jac_entry inst (nth_row (lw_samples w) s) k j)
            (fun s k => net_row (arith_mod (Uint63.of_Z (lw_p w))) (widths inst)
               (acts_mod (lw_p w) (acts inst) (lw_acts_inv w)) (bias inst)
               (rats_mod (lw_p w) (theta inst) (lw_theta_inv w))
               (ints_mod (lw_p w) (nth_row (lw_samples w) s)) k)
            (lw_rows w) (lw_cols w) _ Hpr Hcore).
  move=> s k j Hs _. apply: mlp_entry_sound => //.
  have := rows_len_nth _ _ s Hrows. rewrite nth_row_nth. apply. exact: Hs.
Qed.

Theorem mlp_rank_lower_sound inst w r :
  check_rank_lower inst w r = true -> prime_ok (lw_p w) = true ->
  (r <= \rank (mlp_jacobian inst (lw_samples w)))%N.
Proof. move=> Hc Hpr. apply: rank_of_unit_minor. exact: (mlp_unit_minor_sound _ _ _ Hc Hpr). Qed.

(** The same for a ResNet: [r <= \rank] of the Jacobian of [theta -> (F_theta(x_s))_s]. *)
Theorem resnet_unit_minor_sound inst w r :
  check_rank_lower_resnet inst w r = true -> prime_ok (lw_p w) = true ->
  unit_minor r (resnet_jacobian inst (lw_samples w)).
Proof.
  rewrite /check_rank_lower_resnet.
  move=> /andP [/andP [/andP [/andP [Hshape Hp] Hth] Hac] Hcore] Hpr.
  have Hsh := Hshape. move: Hsh; rewrite /resnet_shape_ok.
  move=> /andP [/andP [/andP [/andP [_ _] _] /Nat.eqb_eq Hlt] Hrows].
  rewrite /resnet_jacobian.
  apply: (@lower_core (lw_p w) Hp _ _ _ r
            (fun s k j => resnet_jac_entry inst (nth_row (lw_samples w) s) k j)
            (fun s k => resnet_row (arith_mod (Uint63.of_Z (lw_p w))) (rn_width inst)
               (rn_outer inst) (acts_mod (lw_p w) (rn_acts inst) (lw_acts_inv w))
               (rats_mod (lw_p w) (rn_theta inst) (lw_theta_inv w))
               (ints_mod (lw_p w) (nth_row (lw_samples w) s)) k)
            (lw_rows w) (lw_cols w) _ Hpr Hcore).
  move=> s k j Hs _. apply: resnet_entry_sound => //.
  have := rows_len_nth _ _ s Hrows. rewrite nth_row_nth. apply. exact: Hs.
Qed.

Theorem resnet_rank_lower_sound inst w r :
  check_rank_lower_resnet inst w r = true -> prime_ok (lw_p w) = true ->
  (r <= \rank (resnet_jacobian inst (lw_samples w)))%N.
Proof. move=> Hc Hpr. apply: rank_of_unit_minor. exact: (resnet_unit_minor_sound _ _ _ Hc Hpr). Qed.

Lemma rats_pos_nth_row batch s : acts_pos batch = true -> rats_pos (nth_row batch s) = true.
Proof. by elim: batch s => [| z batch IH] [| s] //= /andP [Hz Hzs] //; apply: IH. Qed.

(** The same for a ReLU network: no batch point lies on a bent hyperplane, and
    [r <= \rank] of the Jacobian of [theta -> (F_theta(z))_(z in batch)], each point's
    activation pattern at [theta] fixed (the network near [theta]). *)
Theorem relu_rank_lower_sound inst w r :
  check_relu_rank_lower inst w r = true -> prime_ok (rl_p w) = true ->
  relu_batch_generic inst (rl_batch w) /\
  (r <= \rank (relu_jacobian inst (rl_batch w)))%N.
Proof.
  rewrite /check_relu_rank_lower.
  move=> /andP [/andP [/andP [/andP [/andP [Hshape Hp] Hth] Hb] Hnz] Hcore] Hpr.
  have Hsh := Hshape. move: Hsh; rewrite /relu_shape_ok.
  move=> /andP [/andP [/andP [/andP [/andP [_ _] /Nat.eqb_eq Hlt] Hpos] Hrows] Hbpos].
  split.
  - move=> z Hz. apply: relu_nonzero_sound => //.
    + elim: (rl_batch w) Hbpos Hz => [| z0 b IH] /=; first by move=> _ [].
      move=> /andP [H0 H1] [E | Hz]; [by subst z0 | exact: IH].
    + move: (batch_nonzero_q _ _ _ Hnz) => /forallb_forall. apply. exact: Hz.
  - rewrite /relu_jacobian. apply: rank_of_unit_minor.
    apply: (@lower_core (rl_p w) Hp _ _ _ r
              (fun s k j => relu_jac_entry inst (nth_row (rl_batch w) s) k j)
              (fun s k => fst (relu_back (arith_mod (Uint63.of_Z (rl_p w)))
                 (first_width (ri_widths inst)) (tl (ri_widths inst))
                 (List.nth s (batch_patterns (ri_widths inst) (ri_theta inst) (rl_batch w)) nil)
                 (rats_mod (rl_p w) (ri_theta inst) (rl_theta_inv w))
                 (nth_row (acts_mod (rl_p w) (rl_batch w) (rl_batch_inv w)) s) k))
              (rl_rows w) (rl_cols w) _ Hpr Hcore).
    move=> s k j Hs _. rewrite batch_patterns_nth //.
    apply: relu_entry_sound => //.
    + have := rows_len_nth _ _ s Hrows. rewrite nth_row_nth. apply. exact: Hs.
    + exact: rats_pos_nth_row.
    + exact/ltP.
Qed.
