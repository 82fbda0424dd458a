(** What a composition-independence fact means (issue 24): [check_independent inst w k = true]
    gives that the [k] functions of the family (the constant 1 first when [ci_bias], then
    [x -> sigma(p_i(x))]) are linearly independent over Q: a rational combination
    [sum_i c_i f_i] that vanishes at every point of [Q^nvars] has every [c_i = 0].

    The functions are evaluated over MathComp's [rat] by Compind.v's generic evaluators
    ([horner] for sigma, [poly_eval] for [p_i]: Horner's rule and sums of monomials, read at
    [arith_ring rat]), the instance's fractions read by [q_of] (RankMeaning.v).

    The proof, once for every certificate:
    - the kernel's matrix [M[i][j] = f_i(v_j) mod p] is related entrywise ([RK], ElimSound.v)
      to the rational matrix [f_i(v_j)] (parametricity of the generic evaluators);
    - [check_inverse] says [M V = I] mod p, row by row ([identity_rows], with [combo_mod] the
      row times [V] mod p): so [M] is a unit matrix over [Z/p] ([mulmx1_unit]);
    - a unit determinant mod p is a nonzero rational determinant ([Rq_det], [Rq_nonzero]), so
      the rational matrix is invertible, and [c^T F = 0] forces [c = 0].
    No primality is needed (a unit of [Z/p] for any modulus [p > 1]). MathComp names used,
    checked in MathComp 1.15's matrix.v and bigop.v: [mulmx1_unit], [mulmxK], [unitmxE],
    [big_mkord], [big_ord_recl], [big_ord0]. *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank CheckerSound Compind.
From NNCert Require Import RankMeaning ElimSound.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg matrix zmodp rat.
Import GRing.Theory.
Local Open Scope ring_scope.

Local Notation "'φ' x" := (Uint63.to_Z x) (at level 0).
Local Notation aQ := (arith_ring _ : arith rat).

(** * The statement *)

(** [sigma(q(x))] over Q for the polynomial [q] of the instance. *)
Definition comp_value (inst : compind_instance) (q : list ((Z * Z) * list nat)) (x : list rat)
  : rat :=
  horner aQ (List.map q_of (ci_sigma inst))
    (poly_eval aQ (List.map q_of (term_coeffs q)) (term_exps q) x).

(** The family's functions, in the kernel's order: [1] first when biased, then
    [sigma(p_1), ..., sigma(p_m)]. *)
Definition family (inst : compind_instance) : list (list rat -> rat) :=
  (if ci_bias inst then [:: fun _ => 1] else [::]) ++ List.map (comp_value inst) (ci_polys inst).

(** [sum_i c_i f_i(x)]. *)
Definition lin_comb (c : list rat) (fs : list (list rat -> rat)) (x : list rat) : rat :=
  \sum_(0 <= i < size c) c`_i * (nth (fun _ => 0) fs i) x.

(** Linear independence over Q: a combination of the family's functions (as many
    coefficients as functions) that vanishes on [Q^nvars] is zero. *)
Definition independent (inst : compind_instance) : Prop :=
  forall c : list rat, size c = family_size inst ->
    (forall x : list rat, size x = ci_nvars inst -> lin_comb c (family inst) x = 0) ->
    forall i, c`_i = 0.

(** * The kernel's evaluators mod p compute the rational ones *)

Section Residues.
Variable p : Z.
Hypothesis Hp : p_ok p = true.
Local Notation pn := (Z.to_nat p).
Local Notation P := (Uint63.of_Z p).
Local Notation aP := (arith_mod P).
Local Notation RK := (RK p).

Lemma pow_ar_rel x x' e : RK x x' -> RK (pow_ar aQ x e) (pow_ar aP x' e).
Proof.
  move=> H. elim: e => [| e IH]; first exact: (RK1 p Hp).
  exact: (RK_mul p Hp _ _ _ _ H IH).
Qed.

Lemma mono_eval_rel es xs xs' :
  Forall2 RK xs xs' -> RK (mono_eval aQ es xs) (mono_eval aP es xs').
Proof.
  elim: es xs xs' => [| e es IH] xs xs' H; first exact: (RK1 p Hp).
  case: H => [| x x' xs1 xs1' Hx Hxs]; first exact: (RK1 p Hp).
  exact: (RK_mul p Hp _ _ _ _ (pow_ar_rel _ _ e Hx) (IH _ _ Hxs)).
Qed.

Lemma poly_eval_rel cs cs' ess xs xs' : Forall2 RK cs cs' -> Forall2 RK xs xs' ->
  RK (poly_eval aQ cs ess xs) (poly_eval aP cs' ess xs').
Proof.
  move=> H Hx. elim: H ess => [| c c' cs1 cs1' Hc Hcs IH] [| es ess];
    [exact: (RK0 p Hp) | exact: (RK0 p Hp) | exact: (RK0 p Hp) |].
  exact: (RK_add p Hp _ _ _ _ (RK_mul p Hp _ _ _ _ Hc (mono_eval_rel es _ _ Hx)) (IH ess)).
Qed.

Lemma horner_rel cs cs' a a' : Forall2 RK cs cs' -> RK a a' ->
  RK (horner aQ cs a) (horner aP cs' a').
Proof.
  move=> H Ha. elim: H => [| c c' cs1 cs1' Hc Hcs IH]; first exact: (RK0 p Hp).
  exact: (RK_add p Hp _ _ _ _ Hc (RK_mul p Hp _ _ _ _ Ha IH)).
Qed.

(** * [combo_mod]: a row times [V], mod p *)

Lemma phi_fma z x y : (φ z < p)%Z -> (φ x < p)%Z -> (φ y < p)%Z ->
  φ (PrimInt63.mod (PrimInt63.add (PrimInt63.mul z x) y) P) = ((φ z * φ x + φ y) mod p)%Z.
Proof.
  move=> Hz Hx Hy. rewrite (phi_mod p Hp).
  have := phi_bounded z. have := phi_bounded x. have := phi_bounded y. have := p_bounds p Hp.
  move=> Hpb ? ? ?.
  rewrite Uint63.add_spec Uint63.mul_spec wB_eq.
  rewrite (Z.mod_small (φ z * φ x)); last by nia.
  rewrite (Z.mod_small (φ z * φ x + φ y)) //. nia.
Qed.

(** Every entry is a residue below [p]. *)
Definition small (xs : list int) : Prop := forall j, (φ (List.nth j xs 0%uint63) < p)%Z.

Lemma zeros_small n : small (zeros aP n).
Proof.
  move=> j. elim: n j => [| n IH] [| j] /=; rewrite ?Uint63.to_Z_0; try exact: IH;
    have := p_gt1 p Hp; lia.
Qed.

Lemma zeros_nth n j : List.nth j (zeros aP n) 0%uint63 = 0%uint63.
Proof. by elim: n j => [| n IH] [| j] //=. Qed.

Lemma length_zeros n : length (zeros aP n) = n.
Proof. by elim: n => //= n ->. Qed.

Lemma length_add_scaled z r acc : length r = length acc ->
  length (add_scaled_mod P z r acc) = length r.
Proof. by elim: r acc => [| x r IH] [| y acc] //= [] /IH ->. Qed.

Lemma add_scaled_nth z r acc j : (φ z < p)%Z -> small r -> small acc ->
  length r = length acc -> (j < length r)%N ->
  φ (List.nth j (add_scaled_mod P z r acc) 0%uint63)
  = ((φ z * φ (List.nth j r 0%uint63) + φ (List.nth j acc 0%uint63)) mod p)%Z.
Proof.
  move=> Hz; elim: r acc j => [| x r IH] [| y acc] [| j] //= Hr Hacc [] Hl Hj.
  - apply: phi_fma => //; [exact: (Hr 0%N) | exact: (Hacc 0%N)].
  - apply: IH => //; [move=> i; exact: (Hr i.+1) | move=> i; exact: (Hacc i.+1)].
Qed.

Lemma add_scaled_small z r acc : (φ z < p)%Z -> small r -> small acc ->
  length r = length acc -> small (add_scaled_mod P z r acc).
Proof.
  move=> Hz Hr Hacc Hl j. case: (ltnP j (length r)) => Hj.
  - rewrite add_scaled_nth //. have := Z.mod_pos_bound (φ z * φ (List.nth j r 0%uint63)
      + φ (List.nth j acc 0%uint63)) p. have := p_gt1 p Hp. lia.
  - rewrite List.nth_overflow; last by rewrite length_add_scaled //; apply/leP.
    rewrite Uint63.to_Z_0. have := p_gt1 p Hp. lia.
Qed.

(** [combo_mod] computes [sum_l zs[l] * rows[l]] in [Z/p]. *)
Lemma combo_mod_sum m (zs : list int) (rows : list (list int)) :
  size zs = size rows -> small zs -> (forall l, small (List.nth l rows [::])) ->
  (forall l, (l < size rows)%N -> length (List.nth l rows [::]) = m) ->
  length (combo_mod P m zs rows) = m /\ small (combo_mod P m zs rows) /\
  forall j, (j < m)%N ->
    zr (φ (List.nth j (combo_mod P m zs rows) 0%uint63)) =
    \sum_(0 <= l < size zs) zr (φ (List.nth l zs 0%uint63)) *
                       zr (φ (List.nth j (List.nth l rows [::]) 0%uint63)) :> 'Z_pn.
Proof.
  elim: zs rows => [| z zs IH] [| r rows] //= Hs Hz Hr Hl.
  - split; first exact: length_zeros. split; first exact: zeros_small.
    move=> j _. by rewrite big_geq // zeros_nth Uint63.to_Z_0 zr0.
  - case: Hs => Hs.
    have Hzs : small zs by move=> j; exact: (Hz j.+1).
    have [L [S E]] := IH rows Hs Hzs (fun l => Hr l.+1) (fun l Hl' => Hl l.+1 Hl').
    have Hrl : length r = m by exact: (Hl 0%N).
    have Hr0 : small r by exact: (Hr 0%N).
    split; first by rewrite length_add_scaled ?Hrl ?L.
    split; first by apply: add_scaled_small => //; [exact: (Hz 0%N) | rewrite Hrl L].
    move=> j Hj. rewrite big_nat_recl //=.
    rewrite add_scaled_nth //; [| exact: (Hz 0%N) | by rewrite Hrl L | by rewrite Hrl].
    rewrite zr_mod; last exact: p_gt1 p Hp.
    by rewrite zrD zrM E.
Qed.

End Residues.

(** * The kernel's matrix, entry by entry *)

Lemma polys_inv_ok_nth p ps invs : polys_inv_ok p ps invs = true ->
  size invs = size ps /\ forall i, (i < size ps)%N ->
    rats_inv_ok p (term_coeffs (List.nth i ps [::])) (List.nth i invs [::]) = true.
Proof.
  elim: ps invs => [| q ps IH] [| inv invs] //= /andP [Hq Hps].
  have [Hs Hi] := IH _ Hps. split; first by rewrite Hs.
  by case=> [| i] //= /Hi.
Qed.

Lemma nth_family_rows p sm ps invs pts i : size invs = size ps -> (i < size ps)%N ->
  List.nth i (family_rows_mod p sm ps invs pts) [::]
  = family_row_mod p sm (rats_mod p (term_coeffs (List.nth i ps [::])) (List.nth i invs [::]))
      (term_exps (List.nth i ps [::])) pts.
Proof.
  elim: ps invs i => [| q ps IH] [| inv invs] [| i] //= [Hs] Hi. exact: IH.
Qed.

Lemma size_family_rows p sm ps invs pts : size invs = size ps ->
  size (family_rows_mod p sm ps invs pts) = size ps.
Proof. by elim: ps invs => [| q ps IH] [| inv invs] //= [/IH ->]. Qed.

(** RankMeaning.v's [nth_map_lt] with [size] for [length]. *)
Lemma nth_map_row {A B : Type} (f : A -> B) (l : list A) (d : A) (e : B) i :
  (i < size l)%N -> List.nth i (List.map f l) e = f (List.nth i l d).
Proof. rewrite -length_size. exact: nth_map_lt. Qed.

Lemma nth_fun_map (f : list ((Z * Z) * list nat) -> list rat -> rat) l i :
  (i < size l)%N -> nth (fun _ => 0) (List.map f l) i = f (List.nth i l [::]).
Proof. by elim: l i => [| a l IH] [| i] //= /IH. Qed.

Lemma size_repeat1 n : size (repeat 1%Z n) = n.
Proof. by elim: n => //= n ->. Qed.

Lemma nth_repeat1 n j : (j < n)%N -> List.nth j (repeat 1%Z n) 0%Z = 1%Z.
Proof. by elim: n j => [| n IH] [| j] //= /IH. Qed.

Lemma nth_family (inst : compind_instance) i :
  nth (fun _ => 0) (family inst) i =
  if ci_bias inst then (if i is i'.+1 then nth (fun _ => 0) (List.map (comp_value inst)
    (ci_polys inst)) i' else fun _ => 1)
  else nth (fun _ => 0) (List.map (comp_value inst) (ci_polys inst)) i.
Proof. by rewrite /family; case: (ci_bias inst); case: i. Qed.

Section Entries.
Variable p : Z.
Hypothesis Hp : p_ok p = true.
Local Notation P := (Uint63.of_Z p).
Local Notation RK := (RK p).

(** A residue [h] below [p], reduced again: itself. *)
Lemma RK_reduce q h : RK q h -> RK q (Uint63.of_Z (φ h mod p)).
Proof.
  move=> [Hh R]. have := phi_bounded h. move=> Hb.
  rewrite Z.mod_small; last lia. by rewrite Uint63.of_to_Z.
Qed.

Lemma RK_one : RK 1 (Uint63.of_Z (1 mod p)).
Proof.
  have := RK_ints p Hp [:: 1%Z]. move=> H. inversion H as [| a b l l' Hab]; subst.
  by rewrite zr1 in Hab.
Qed.

(** Entry [(i, j)] of the kernel's matrix, reduced mod p, is the residue of [f_i(v_j)]. *)
Lemma entry_rel inst (w : indep_witness) i j :
  polys_inv_ok p (ci_polys inst) (iw_polys_inv w) = true ->
  rats_inv_ok p (ci_sigma inst) (iw_sigma_inv w) = true ->
  (i < family_size inst)%N -> (j < size (iw_points w))%N ->
  RK ((nth (fun _ => 0) (family inst) i) (List.map zr (List.nth j (iw_points w) [::])))
     (List.nth j (List.nth i (reduce_rows p (family_matrix_mod p (ci_bias inst)
        (rats_mod p (ci_sigma inst) (iw_sigma_inv w)) (ci_polys inst) (iw_polys_inv w)
        (iw_points w))) [::]) 0%uint63).
Proof.
  move=> Hpi Hsi Hi Hj. have [Hs Hinv] := polys_inv_ok_nth _ _ _ Hpi.
  set sm := rats_mod p (ci_sigma inst) (iw_sigma_inv w).
  set rows := family_rows_mod p sm (ci_polys inst) (iw_polys_inv w) (iw_points w).
  have Hrows : size rows = size (ci_polys inst) by exact: size_family_rows.
  (* one polynomial's entry *)
  have Hpoly : forall i', (i' < size (ci_polys inst))%N ->
      RK (comp_value inst (List.nth i' (ci_polys inst) [::])
            (List.map zr (List.nth j (iw_points w) [::])))
         (List.nth j (ints_mod p (List.nth i' rows [::])) 0%uint63).
    move=> i' Hi'. rewrite /rows nth_family_rows // /ints_mod /family_row_mod.
    rewrite (nth_map_row _ _ 0%Z 0%uint63 j); last by rewrite size_map.
    rewrite (nth_map_row _ _ [::] 0%Z j) //.
    apply: RK_reduce.
    exact: (horner_rel p Hp _ _ _ _ (RK_rats p Hp _ _ Hsi) (poly_eval_rel p Hp _ _ _ _ _
      (RK_rats p Hp _ _ (Hinv i' Hi')) (RK_ints p Hp _))).
  rewrite nth_family /family_matrix_mod /reduce_rows.
  move: Hi; rewrite /family_size length_size.
  case: (ci_bias inst) => Hi; rewrite /= in Hi.
  - case: i Hi => [| i'] Hi /=.
    + rewrite /ones_row /ints_mod (nth_map_row _ _ 0%Z 0%uint63 j); last by rewrite size_repeat1.
      rewrite nth_repeat1 //. exact: RK_one.
    + have Hi' : (i' < size (ci_polys inst))%N by move/ltP: Hi => Hi; apply/ltP; lia.
      rewrite (nth_map_row _ _ [::] _ i') ?size_map ?Hrows // nth_fun_map //.
      exact: Hpoly.
  - have Hi' : (i < size (ci_polys inst))%N by move/ltP: Hi => Hi; apply/ltP; lia.
    rewrite (nth_map_row _ _ [::] _ i) ?size_map ?Hrows // nth_fun_map //.
    exact: Hpoly.
Qed.

End Entries.

(** * The theorem *)

(** RankMeaning.v's [rows_len_nth] with [List.nth] and [size]. *)
Lemma rows_len_nth' {A : Type} {m : nat} {rows : list (list A)} {i : nat} :
  rows_len m rows = true -> (i < size rows)%N -> length (List.nth i rows [::]) = m.
Proof. rewrite -nth_row_nth -length_size. exact: rows_len_nth. Qed.

Lemma size_List_map {A B : Type} (f : A -> B) (l : list A) : size (List.map f l) = length l.
Proof. by rewrite -length_size List.map_length. Qed.

(** Entries of [ints_mod] rows are residues below [p]. *)
Lemma ints_mod_small p (Hp : p_ok p = true) xs : small p (ints_mod p xs).
Proof.
  move=> j. rewrite /ints_mod.
  elim: xs j => [| x xs IH] [| j]; rewrite /= ?Uint63.to_Z_0;
    [have := p_gt1 p Hp; lia | have := p_gt1 p Hp; lia | | exact: IH].
  rewrite (phi_of_Z_mod p Hp). have := Z.mod_pos_bound x p. have := p_gt1 p Hp. lia.
Qed.

Theorem independent_meaning inst w k : check_independent inst w k = true -> independent inst.
Proof.
  rewrite /check_independent; cbv zeta.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [/andP [/Nat.eqb_eq Hk _] Hp] Hpi] Hsi]
    /Nat.eqb_eq Hnp] Hpts] Hinv].
  set p := iw_p w in Hp Hpi Hsi Hinv *.
  have Hp1 : (1 < p)%Z := p_gt1 p Hp.
  move: Hinv; rewrite /check_inverse.
  move=> /andP [/andP [/andP [/andP [/Nat.eqb_eq HM HrM] /Nat.eqb_eq HV] HrV] Hid].
  set M := family_matrix_mod _ _ _ _ _ _ in HM HrM Hid.
  set Mr := reduce_rows p M in Hid. set Vr := reduce_int_rows (Uint63.of_Z p) (iw_inv w) in Hid.
  have HMr : size Mr = k by rewrite /Mr /reduce_rows size_map -length_size.
  have HVr : size Vr = k by rewrite /Vr /reduce_int_rows size_map -length_size.
  have HMs : size M = k by rewrite -length_size.
  have HVs : size (iw_inv w) = k by rewrite -length_size.
  have HMrow : forall i, (i < k)%N -> length (List.nth i Mr [::]) = k.
    move=> i Hi. rewrite /Mr /reduce_rows (nth_map_row _ _ [::]) ?HMs //.
    by rewrite /ints_mod List.map_length (rows_len_nth' HrM) ?HMs.
  have HVrow : forall i, (i < k)%N -> length (List.nth i Vr [::]) = k.
    move=> i Hi. rewrite /Vr /reduce_int_rows (nth_map_row _ _ [::]) ?HVs //.
    by rewrite List.map_length (rows_len_nth' HrV) ?HVs.
  have HMsmall : forall i, small p (List.nth i Mr [::]).
    move=> i. case: (ltnP i (size M)) => Hi.
    - rewrite /Mr /reduce_rows (nth_map_row _ _ [::]) //. exact: ints_mod_small.
    - rewrite List.nth_overflow; last by rewrite /Mr /reduce_rows List.map_length length_size;
        apply/leP.
      move=> j. have -> : List.nth j [::] 0%uint63 = 0%uint63 by case: j.
      rewrite Uint63.to_Z_0. have := p_gt1 p Hp. lia.
  have HVsmall : forall l, small p (List.nth l Vr [::]).
    move=> l j. case: (ltnP l (size (iw_inv w))) => Hl.
    - rewrite /Vr /reduce_int_rows (nth_map_row _ _ [::]) //.
      case: (ltnP j (length (List.nth l (iw_inv w) [::]))) => Hj.
      + rewrite (nth_map_row _ _ 0%uint63); first exact: phi_mod_lt p Hp _.
        by rewrite -length_size.
      + rewrite (@List.nth_overflow _ _ j); last by rewrite List.map_length; apply/leP.
        rewrite Uint63.to_Z_0. have := p_gt1 p Hp. lia.
    - rewrite (@List.nth_overflow _ Vr l [::]); last by rewrite /Vr /reduce_int_rows
        List.map_length length_size; apply/leP.
      have -> : List.nth j [::] 0%uint63 = 0%uint63 by case: j.
      rewrite Uint63.to_Z_0. have := p_gt1 p Hp. lia.
  pose A : 'M['Z_(Z.to_nat p)]_k :=
    \matrix_(i, j) zr (φ (List.nth j (List.nth i Mr [::]) 0%uint63)).
  pose B : 'M['Z_(Z.to_nat p)]_k :=
    \matrix_(i, j) zr (φ (List.nth j (List.nth i Vr [::]) 0%uint63)).
  have AB : A *m B = 1%:M.
    apply/matrixP => i j.
    have Hi : (i < k)%N := ltn_ord i.
    have Hrow : is_unit_row i (combo_mod (Uint63.of_Z p) k (List.nth i Mr [::]) Vr) = true.
      apply: (identity_rows_sound _ _ _ _ _ Hid i).
      apply: List.nth_error_nth'. rewrite length_size HMr. exact/ltP.
    have Hsz : size (List.nth i Mr [::]) = size Vr by rewrite -length_size HMrow // HVr.
    have Hlen : forall l, (l < size Vr)%N -> length (List.nth l Vr [::]) = k.
      by move=> l Hl; apply: HVrow; rewrite -HVr.
    have [_ [_ E]] := combo_mod_sum p Hp k (List.nth i Mr [::]) Vr Hsz (HMsmall i) HVsmall Hlen.
    have [_ [H1 H0]] := is_unit_row_sound _ _ Hrow.
    have -> : (A *m B) i j = \sum_(0 <= l < k)
        zr (φ (List.nth l (List.nth i Mr [::]) 0%uint63)) *
        zr (φ (List.nth j (List.nth l Vr [::]) 0%uint63)).
      rewrite mxE big_mkord. apply: eq_bigr => l _. by rewrite !mxE.
    rewrite mxE. rewrite -length_size HMrow // in E. rewrite -E //.
    case: (eqVneq i j) => [<- | Hij].
    - by rewrite H1 Uint63.to_Z_1 zr1 ?eqxx ?mulr1n.
    - rewrite H0; last by move=> E'; apply: (negP Hij); apply/eqP; apply: val_inj.
      by rewrite Uint63.to_Z_0 zr0 ?(negPf Hij) ?mulr0n.
  have [UA _] := mulmx1_unit AB.
  pose MQ : 'M[rat]_k :=
    \matrix_(i, j) (nth (fun _ => 0) (family inst) i) (List.map zr (List.nth j (iw_points w) [::])).
  have Rel : forall i j, Rq p (MQ i j) (A i j).
    move=> i j. rewrite !mxE. apply: RK_Rq.
    apply: (entry_rel p Hp inst w i j Hpi Hsi).
    - rewrite -Hk. exact: ltn_ord.
    - rewrite -length_size Hnp. exact: ltn_ord.
  have UQ : MQ \in unitmx.
    rewrite unitmxE unitfE. apply: (@Rq_nonzero p _ (\det A)).
    - apply: Rq_det => i j. exact: Rel.
    - by rewrite -unitmxE.
  move=> c Hc Hzero i.
  case: (ltnP i (size c)) => Hi; last by rewrite nth_default.
  have Hik : (i < k)%N by rewrite Hk -Hc.
  pose cv : 'rV[rat]_k := \row_(l < k) c`_l.
  have Hcv : cv *m MQ = 0.
    apply/rowP => j. rewrite !mxE.
    have Hx : size (List.map zr (List.nth j (iw_points w) [::]) : list rat) = ci_nvars inst.
      have Hj : (j < size (iw_points w))%N by rewrite -length_size Hnp; exact: ltn_ord.
      by rewrite -(rows_len_nth' Hpts Hj) size_List_map.
    have := Hzero _ Hx. rewrite /lin_comb Hc -Hk big_mkord => H0.
    apply: (etrans _ H0). apply: eq_bigr => l _. by rewrite !mxE.
  have : cv = 0 by rewrite -[cv](mulmxK UQ) Hcv mul0mx.
  move/rowP/(_ (Ordinal Hik)). by rewrite !mxE.
Qed.
