(** Soundness of the elimination mod p (issue 15, part 1), MathComp 1.15.
    - [prime_ok p]: [p] is an odd prime below [2^31] (or [2]), by trial division;
      [prime_ok_prime]: then [p] is prime in MathComp's sense.
    - [RK q x]: the rational [q] and the residue [x] (a primitive 63-bit integer in
      [[0, p)]) are related by [Rq] of RankMeaning.v ([q = n/d], [x = n d^-1] mod p).
      [RK] respects [0, 1, +, *] of [arith_ring rat] and [arith_mod p], and relates the
      kernel's inputs ([rats_mod], [acts_mod], [ints_mod]) to their rationals.
    - [check_minor_unit]: if [p] is prime and the fraction-free elimination of RankCore.v
      succeeds, the [r x r] minor (entries read as residues in [Z/p]) is a unit matrix;
      the kernel's fast forms are proved to compute the same: [select_minor_eq] (the minor
      read in one walk per row over gap-encoded columns is [minor_rows]) and
      [nonsingular2_mod_eq] (two elimination columns per pass is [nonsingular_mod] on rows of
      residues below [p]).
    Axioms: only the specification axioms of Coq's primitive integers (Uint63). *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank RankMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop fingroup perm ssralg matrix zmodp rat prime div.
Import GRing.Theory.
Local Open Scope ring_scope.

Local Notation "'φ' x" := (Uint63.to_Z x) (at level 0).

(** * Primality by trial division *)

(** [p] has no divisor among the odd numbers [d, d + 2, ...] up to [sqrt p]: the loop
    answers [true] once [p < d * d] and [false] on a divisor or when [fuel] runs out.
    Primitive integers ([p < 2^31], [d < 2^16]: [d * d] never wraps). *)
Fixpoint no_odd_divisor (p d : int) (fuel : nat) : bool :=
  match fuel with
  | O => false
  | S f => if PrimInt63.ltb p (PrimInt63.mul d d) then true
           else if PrimInt63.eqb (PrimInt63.mod p d) 0%uint63 then false
           else no_odd_divisor p (PrimInt63.add d 2%uint63) f
  end.

(** [p] is prime and below [2^31]: [p = 2], or [p] is odd, [2 < p < 2^31], and no odd
    [3 <= d <= sqrt p] divides [p] ([sqrt p + 1] steps suffice). *)
Definition prime_ok (p : Z) : bool :=
  Z.eqb p 2 || ((2 <? p)%Z && (p <? 2147483648)%Z && Z.eqb (p mod 2) 1 &&
    no_odd_divisor (Uint63.of_Z p) 3%uint63 (S (Z.to_nat (Z.sqrt p)))).

(** Facts on [φ = Uint63.to_Z] for values below [2^31] (nothing wraps around [2^63]). *)
Lemma wB_eq : wB = 9223372036854775808%Z.
Proof. reflexivity. Qed.

Lemma phi_of_Z z : (0 <= z < 2147483648)%Z -> φ (Uint63.of_Z z) = z.
Proof. move=> H. rewrite Uint63.of_Z_spec Z.mod_small // wB_eq. lia. Qed.

Lemma phi_bounded x : (0 <= φ x < 9223372036854775808)%Z.
Proof. rewrite -wB_eq. exact: Uint63.to_Z_bounded. Qed.

Lemma no_odd_divisor_sound p d f :
  (2 < p < 2147483648)%Z -> (p mod 2 = 1)%Z ->
  (3 <= φ d)%Z -> (φ d mod 2 = 1)%Z -> ((φ d - 2) * (φ d - 2) <= p)%Z ->
  (forall k, (2 <= k < φ d)%Z -> ~ (k | p)%Z) ->
  no_odd_divisor (Uint63.of_Z p) d f = true ->
  forall k, (2 <= k)%Z -> (k * k <= p)%Z -> ~ (k | p)%Z.
Proof.
  move=> Hp Hodd.
  elim: f d => [| f IH] d //= Hd3 Hdodd Hsq Hinv.
  have HP : φ (Uint63.of_Z p) = p by apply: phi_of_Z; lia.
  have Hdd : φ (PrimInt63.mul d d) = (φ d * φ d)%Z.
    rewrite Uint63.mul_spec Z.mod_small // wB_eq. nia.
  case El : (PrimInt63.ltb (Uint63.of_Z p) (PrimInt63.mul d d)).
  { move: El => /Uint63.ltb_spec; rewrite HP Hdd => H _ k Hk Hkk. apply: Hinv. nia. }
  have Hle : (φ d * φ d <= p)%Z.
    case: (Z.le_gt_cases (φ d * φ d) p) => // Hgt.
    have : PrimInt63.ltb (Uint63.of_Z p) (PrimInt63.mul d d) = true.
      by apply/Uint63.ltb_spec; rewrite HP Hdd.
    by rewrite El.
  case Em : (PrimInt63.eqb (PrimInt63.mod (Uint63.of_Z p) d) 0%uint63) => //.
  have Hnd : ~ (φ d | p)%Z.
    move=> /(Z.mod_divide p (φ d)) Hm. have {}Hm : (p mod φ d = 0)%Z by apply: Hm; lia.
    move: Em. have -> : PrimInt63.mod (Uint63.of_Z p) d = 0%uint63.
      apply: Uint63.to_Z_inj. by rewrite Uint63.mod_spec HP Hm Uint63.to_Z_0.
    by rewrite Uint63.eqb_refl.
  have H2 : φ (PrimInt63.add d 2%uint63) = (φ d + 2)%Z.
    rewrite Uint63.add_spec Z.mod_small //. have := phi_bounded d.
    change (φ 2%uint63) with 2%Z. rewrite wB_eq. lia.
  apply: IH; rewrite H2; [lia | | nia |].
  - rewrite Zplus_mod Hdodd. done.
  - move=> k Hk Hkp.
    case: (Z.lt_ge_cases k (φ d)) => Hkd; first by apply: (Hinv k); [lia|].
    case: (Z.eq_dec k (φ d)) => [E | Hne]; first by subst k.
    have Ek : k = (φ d + 1)%Z by lia.
    have H2p : (2 | p)%Z.
      apply: (Z.divide_trans _ k) => //. exists (φ d / 2 + 1)%Z. rewrite Ek.
      have := Z_div_mod_eq_full (φ d) 2. rewrite Hdodd. lia.
    move: H2p => /(Z.mod_divide p 2) H. have := H ltac:(lia). lia.
Qed.

(** An integer [p > 1] without a divisor [2 <= k] with [k * k <= p] is prime. *)
Lemma prime_of_no_small_divisor p : (1 < p)%Z ->
  (forall k, (2 <= k)%Z -> (k * k <= p)%Z -> ~ (k | p)%Z) -> prime (Z.to_nat p).
Proof.
  move=> Hp Hk. apply/primeP. split; first by apply/ltP; lia.
  move=> d /dvdnP [e He] /=. apply/orP.
  have E : p = (Z.of_nat e * Z.of_nat d)%Z.
    have He' : Z.to_nat p = Nat.mul e d by rewrite He.
    by rewrite -Nat2Z.inj_mul -He' Z2Nat.id //; lia.
  case: (Nat.eq_dec d 1) => [-> | Hd1]; [by left|].
  case: (Nat.eq_dec e 1) => [He1 | He1].
    right. apply/eqP. rewrite He He1. by rewrite mul1n.
  exfalso.
  have Hd0 : (d <> 0)%N by move=> Hd; rewrite Hd in E; lia.
  have He0 : (e <> 0)%N by move=> He'; rewrite He' in E; lia.
  case: (Z.le_ge_cases (Z.of_nat d) (Z.of_nat e)) => Hde.
  - apply: (Hk (Z.of_nat d)); [lia | nia | by exists (Z.of_nat e)].
  - apply: (Hk (Z.of_nat e)); [lia | nia | exists (Z.of_nat d); lia].
Qed.

(** [prime_ok p = true]: [p] is prime. *)
Lemma prime_ok_prime p : prime_ok p = true -> prime (Z.to_nat p).
Proof.
  rewrite /prime_ok => /orP [/Z.eqb_eq -> // |].
  move=> /andP [/andP [/andP [/Z.ltb_lt H2 /Z.ltb_lt H31] /Z.eqb_eq Hodd] Hnd].
  apply: prime_of_no_small_divisor; first lia.
  apply: (no_odd_divisor_sound _ _ _ _ Hodd _ _ _ _ Hnd) => //; change (φ 3%uint63) with 3%Z => //.
  - lia.
  - move=> k Hk [z Hz]. change (φ 3%uint63) with 3%Z in Hk.
    have Ek : k = 2%Z by lia. subst k.
    move: Hodd. rewrite Hz Z_mod_mult. done.
Qed.

(** * Fraction-free elimination over a commutative ring *)

(** One step: [A = [a, u; v, D]] with [a] a unit and the eliminated block
    [a D - v u] invertible gives [A] invertible, since
    [[1, 0; -v, a] A = [a, u; 0, a D - v u]] and so [a^n det A = a det (a D - v u)]. *)
Lemma elim_step_unit (R : comUnitRingType) n (A : 'M[R]_(1 + n)) (a : R) :
  ulsubmx A = a%:M -> a \is a GRing.unit ->
  (a *: drsubmx A - dlsubmx A *m ursubmx A) \in unitmx -> A \in unitmx.
Proof.
  move=> Hul Ha HB.
  have E : block_mx 1%:M 0 (- dlsubmx A) a%:M *m A =
           block_mx a%:M (ursubmx A) 0 (a *: drsubmx A - dlsubmx A *m ursubmx A).
    rewrite -[X in _ *m X = _](submxK A) mulmx_block Hul !mul1mx !mul0mx !addr0.
    by rewrite !mulNmx mul_mx_scalar !mul_scalar_mx addNr addrC.
  have := congr1 determinant E.
  rewrite det_mulmx det_lblock det_ublock det1 mul1r det_scalar det_scalar1 => Hdet.
  move: HB; rewrite !unitmxE => HB.
  have : (a ^+ n * \det A) \is a GRing.unit by rewrite Hdet unitrM Ha HB.
  by rewrite unitrM => /andP [].
Qed.

(** * The relation between Q and residues on primitive integers *)

(** * The one-walk minor: [select_minor] is [minor_rows]
    ([sel_gaps] reads the entries at [gap_cols 0 gaps] in one walk; [col_gaps] recovers the
    gaps of strictly increasing columns), so every lemma below about [minor_rows] covers the
    kernel's [select_minor]. *)

Lemma hd_skipn_nth_int (row : list int) c : hd 0%uint63 (skipn c row) = nth_int row c.
Proof. by elim: row c => [| x row IH] [| c] //=. Qed.

Lemma tl_skipn (row : list int) c : tl (skipn c row) = skipn c.+1 row.
Proof. by elim: row c => [| x row IH] [| c] //=; rewrite IH. Qed.

Lemma skipn_add (row : list int) g b : skipn g (skipn b row) = skipn (g + b) row.
Proof.
  elim: b row => [| b IH] [| x row] /=; rewrite ?addn0 ?addnS //=.
  by case: (g).
Qed.

Lemma sel_gaps_skipn row gaps b :
  sel_gaps (skipn b row) gaps = List.map (fun c => nth_int row c) (gap_cols b gaps).
Proof.
  elim: gaps b => [| g gs IH] b //=.
  by rewrite skipn_add hd_skipn_nth_int tl_skipn IH.
Qed.

(** [sel_gaps row gaps = map (nth_int row) (prefix sums of the gaps)]. *)
Lemma sel_gaps_cols row gaps :
  sel_gaps row gaps = List.map (fun c => nth_int row c) (gap_cols 0 gaps).
Proof. exact: (sel_gaps_skipn row gaps 0). Qed.

Lemma col_gaps_cols b cols gaps : col_gaps b cols = Some gaps -> gap_cols b gaps = cols.
Proof.
  elim: cols b gaps => [| c cs IH] b gaps /=; first by case=> <-.
  case H: (Nat.leb b c) => //. move/Nat.leb_le: H => Hbc.
  case E: (col_gaps c.+1 cs) => [gs |] //; case=> <- /=.
  by rewrite Nat.sub_add // (IH _ _ E).
Qed.

Lemma select_minor_eq rows cols : select_minor rows cols = minor_rows rows cols.
Proof.
  rewrite /select_minor. case E: (col_gaps 0 cols) => [gaps |] //.
  rewrite /minor_rows -(col_gaps_cols _ _ _ E). apply: List.map_ext => row.
  exact: sel_gaps_cols.
Qed.

(** The fused cell of [elim2_tail] is the cell of two elimination steps (integers mod p). *)
Lemma fused_cell_mod (p a nb d e x y q : Z) : p <> 0%Z ->
  ((((d * a) mod p * y + (d * nb) mod p * x) mod p + (p - e) * q) mod p =
   (d * ((a * y + nb * x) mod p) + (p - e) * q) mod p)%Z.
Proof.
  move=> Hp. rewrite Z.add_mod_idemp_l //.
  rewrite (Z.mod_eq (d * a)) // (Z.mod_eq (d * nb)) // (Z.mod_eq (a * y + nb * x)) //.
  set Q1 := ((d * a) / p)%Z. set Q2 := ((d * nb) / p)%Z. set Q3 := ((a * y + nb * x) / p)%Z.
  have -> : ((d * a - p * Q1) * y + (d * nb - p * Q2) * x + (p - e) * q =
             d * (a * y + nb * x - p * Q3) + (p - e) * q + (d * Q3 - Q1 * y - Q2 * x) * p)%Z.
    by ring.
  by rewrite Z.mod_add.
Qed.

Section Residues.
Variable p : Z.
Hypothesis Hp : p_ok p = true.
Local Notation pn := (Z.to_nat p).
Local Notation P := (Uint63.of_Z p).

Lemma p_bounds : (1 < p < 2147483648)%Z.
Proof. move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? /Z.ltb_lt ?]. lia. Qed.

Lemma p_gt1 : (1 < p)%Z.
Proof. have := p_bounds. lia. Qed.

Lemma phiP : φ P = p.
Proof. apply: phi_of_Z. have := p_bounds. lia. Qed.

(** The rational [q] and the residue [x] in [[0, p)]: [q = n/d] and [x = n d^-1] mod p. *)
Definition RK (q : rat) (x : int) : Prop := (φ x < p)%Z /\ Rq p q (zr (φ x)).

(** [RK] forgets the range: the residue is the image of [q] in [Z/p]. *)
Lemma RK_Rq q x : RK q x -> Rq p q (zr (φ x)).
Proof. by case. Qed.

Lemma phi_mod x : φ (PrimInt63.mod x P) = (φ x mod p)%Z.
Proof. by rewrite Uint63.mod_spec phiP. Qed.

Lemma phi_mod_lt x : (φ (PrimInt63.mod x P) < p)%Z.
Proof. rewrite phi_mod. have := Z.mod_pos_bound (φ x) p. have := p_gt1. lia. Qed.

Lemma phi_add_small x y : (φ x < p)%Z -> (φ y < p)%Z -> φ (PrimInt63.add x y) = (φ x + φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_bounded x. have := phi_bounded y. have := p_bounds.
  rewrite Uint63.add_spec wB_eq => ? ? ?. rewrite Z.mod_small //. lia.
Qed.

Lemma phi_mul_small x y : (φ x < p)%Z -> (φ y < p)%Z -> φ (PrimInt63.mul x y) = (φ x * φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_bounded x. have := phi_bounded y. have := p_bounds.
  rewrite Uint63.mul_spec wB_eq => ? ? ?. rewrite Z.mod_small //. nia.
Qed.

(** [0 ~ 0] and [1 ~ 1]. *)
Lemma RK0 : RK 0 (zero (arith_mod P)).
Proof. rewrite /RK /= Uint63.to_Z_0 zr0. split; [have := p_gt1; lia | exact: Rq0]. Qed.

Lemma RK1 : RK 1 (one (arith_mod P)).
Proof. rewrite /RK /= Uint63.to_Z_1 zr1. split; [exact: p_gt1 | exact: Rq1]. Qed.

(** [RK] respects sums: [(a + b) mod p] ([a + b < 2^32] does not wrap) is [a + b] in [Z/p];
    the Radd hypothesis of the parametricity sections (Jacobian.v, Section Rel). *)
Lemma RK_add : forall a a' b b', RK a b -> RK a' b' ->
  RK (add (arith_ring _ : arith rat) a a') (add (arith_mod P) b b').
Proof.
  move=> a a' b b' [Hb Rb] [Hb' Rb'] /=. split; first exact: phi_mod_lt.
  rewrite phi_mod phi_add_small // zr_mod; last exact: p_gt1.
  rewrite zrD. exact: RqD.
Qed.

(** [RK] respects products ([a * b < 2^62] does not wrap); the Rmul hypothesis. *)
Lemma RK_mul : forall a a' b b', RK a b -> RK a' b' ->
  RK (mul (arith_ring _ : arith rat) a a') (mul (arith_mod P) b b').
Proof.
  move=> a a' b b' [Hb Rb] [Hb' Rb'] /=. split; first exact: phi_mod_lt.
  rewrite phi_mod phi_mul_small // zr_mod; last exact: p_gt1.
  rewrite zrM. exact: RqM.
Qed.

Lemma phi_of_Z_mod z : φ (Uint63.of_Z (z mod p)) = (z mod p)%Z.
Proof.
  apply: phi_of_Z. have := p_bounds. have := Z.mod_pos_bound z p. lia.
Qed.

(** [num/den ~ num * inv mod p] when [den > 0] and [den * inv = 1 (mod p)]. *)
Lemma RK_rat v inv : rat_inv_ok p v inv = true -> RK (q_of v) (rat_mod p v inv).
Proof.
  move=> H. rewrite /RK /rat_mod phi_of_Z_mod. split.
  - have := Z.mod_pos_bound (fst v mod p * (inv mod p)) p. have := p_gt1. lia.
  - exact: (Rf_rat p p_gt1 v inv H).
Qed.

(** The parameters (or an activation list) and their residues are related entrywise. *)
Lemma RK_rats th invs : rats_inv_ok p th invs = true ->
  Forall2 RK (List.map q_of th) (rats_mod p th invs).
Proof.
  elim: th invs => [| v th IH] [| inv invs] //= /andP [Hv Hth].
  constructor; [exact: RK_rat | exact: IH].
Qed.

(** The activations (ReLU batch inputs included) and their residues. *)
Lemma RK_acts acts invs : acts_inv_ok p acts invs = true ->
  Forall2 (Forall2 RK) (List.map (List.map q_of) acts) (acts_mod p acts invs).
Proof.
  elim: acts invs => [| a acts IH] [| inv invs] //= /andP [Ha Hacts].
  constructor; [exact: RK_rats | exact: IH].
Qed.

(** Integer inputs [x] and their residues [x mod p]. *)
Lemma RK_ints x : Forall2 RK (List.map zr x) (ints_mod p x).
Proof.
  elim: x => [| z x IH] //=. constructor; [| exact: IH].
  rewrite /RK phi_of_Z_mod. split.
  - have := Z.mod_pos_bound z p. have := p_gt1. lia.
  - rewrite zr_mod; [exact: Rq_int | exact: p_gt1].
Qed.

(** * The elimination on primitive integers *)

Lemma nth_int_nth xs j : nth_int xs j = nth 0%uint63 xs j.
Proof. by elim: xs j => [| x xs IH] [| j] //=. Qed.

Lemma List_nth_nth {A : Type} (d : A) l i : List.nth i l d = nth d l i.
Proof. by elim: l i => [| x l IH] [| i] //=. Qed.

Lemma length_size {A : Type} (l : list A) : length l = size l.
Proof. by elim: l => //= x l ->. Qed.

Lemma List_map_map {A B : Type} (f : A -> B) l : List.map f l = map f l.
Proof. by elim: l => //= x l ->. Qed.

Lemma In_cat {A : Type} (x : A) s1 s2 : List.In x (s1 ++ s2) <-> List.In x s1 \/ List.In x s2.
Proof.
  elim: s1 => [| y s1 IH] /=; first by split; [right | case].
  rewrite IH. tauto.
Qed.

(** The lock of [imx]. *)
Fact imx_key : unit. Proof. by []. Qed.

(** The residues of the rows [M] as an [n x n] matrix over [Z/p] (keyed: unification never
    unfolds it into its table). *)
Definition imx n (M : list (list int)) : 'M['Z_pn]_n :=
  \matrix[imx_key]_(i, j) zr (φ (nth_int (nth [::] M i) j)).

Lemma imx_E n M i j : imx n M i j = zr (φ (nth_int (nth [::] M i) j)).
Proof. by rewrite /imx mxE. Qed.

(** [M] has [n] rows of [n] residues in [[0, p)]. *)
Definition rows_ok n (M : list (list int)) : Prop :=
  size M = n /\
  forall row, List.In row M -> size row = n /\ forall x, List.In x row -> (φ x < p)%Z.

(** [pick_pivot] takes a row with a nonzero head out of [M], keeping the others in order. *)
Lemma pick_pivot_spec M piv rest : pick_pivot M = Some (piv, rest) ->
  exists pre post, M = pre ++ piv :: post /\ rest = pre ++ post /\ lead_nonzero piv = true.
Proof.
  elim: M rest => [| row M IH] rest //=.
  case Hl: (lead_nonzero row).
  - case=> <- <-. by exists [::], M.
  - case Hpp: (pick_pivot M) => [[piv' rest'] |] //. case=> E <-. subst piv'.
    have [pre [post [E1 [E2 H]]]] := IH _ Hpp. exists (row :: pre), post. by rewrite E1 E2.
Qed.

Lemma nth_lift_cat {A : Type} (d : A) pre x post n (k : 'I_n.+1) (j : 'I_n) :
  size pre = k -> nth d (pre ++ x :: post) (lift k j) = nth d (pre ++ post) j.
Proof.
  move=> Hk. rewrite /= /bump !nth_cat Hk.
  case: (ltnP j k) => Hj.
  - by rewrite /= add0n Hj.
  - rewrite /= add1n.
    have -> : (j.+1 < k)%N = false by apply/negbTE; rewrite -leqNgt; apply: leqW.
    by rewrite subSn.
Qed.

(** Moving the pivot row to the top is a row permutation ([s]: [0 -> k], [lift 0 i -> lift k i]). *)
Lemma imx_pivot n pre piv post (k : 'I_n.+1) (s : 'S_n.+1) : size pre = k ->
  s ord0 = k -> (forall i, s (lift ord0 i) = lift k i) ->
  row_perm s (imx n.+1 (pre ++ piv :: post)) = imx n.+1 (piv :: pre ++ post).
Proof.
  move=> Hk Hs0 Hs. apply/matrixP => i j.
  rewrite /row_perm mxE [in RHS]imx_E imx_E.
  case: (unliftP ord0 i) => [i' -> | ->].
  - by rewrite Hs nth_lift_cat // lift0.
  - by rewrite Hs0 nth_cat Hk ltnn subnn.
Qed.

Lemma phi_nonneg x : (0 <= φ x)%Z.
Proof. by case: (phi_bounded x). Qed.

Lemma phi_sub_small x : (φ x < p)%Z -> φ (PrimInt63.sub P x) = (p - φ x)%Z.
Proof.
  move=> Hx. have := phi_nonneg x. have := p_bounds.
  rewrite Uint63.sub_spec phiP wB_eq => ? ?. rewrite Z.mod_small //. lia.
Qed.

Lemma phi_mul_le x y : (φ x <= p)%Z -> (φ y <= p)%Z -> φ (PrimInt63.mul x y) = (φ x * φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_nonneg x. have := phi_nonneg y. have := p_bounds.
  rewrite Uint63.mul_spec wB_eq => ? ? ?. rewrite Z.mod_small //. nia.
Qed.

Lemma phi_add_sq x y : (φ x <= p * p)%Z -> (φ y <= p * p)%Z ->
  φ (PrimInt63.add x y) = (φ x + φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_nonneg x. have := phi_nonneg y. have := p_bounds.
  rewrite Uint63.add_spec wB_eq => ? ? ?. rewrite Z.mod_small //. nia.
Qed.

Lemma zr_sub_p z : zr (p - z)%Z = - zr z :> 'Z_pn.
Proof. by rewrite -Z.add_opp_r zrD zrN zr_p ?sub0r ?add0r //; exact: p_gt1. Qed.

(** Entry [j] of [elim_tail a b pt rt] is [a * rt[j] - b * pt[j]] in [Z/p]. *)
Lemma elim_tail_nth a b pt rt j : (φ a < p)%Z -> (φ b < p)%Z ->
  (forall x, List.In x pt -> (φ x < p)%Z) -> (forall y, List.In y rt -> (φ y < p)%Z) ->
  (j < size pt)%N -> (j < size rt)%N ->
  zr (φ (nth_int (elim_tail P a b pt rt) j)) =
  zr (φ a) * zr (φ (nth_int rt j)) - zr (φ b) * zr (φ (nth_int pt j)) :> 'Z_pn.
Proof.
  move=> Ha Hb. elim: pt rt j => [| x pt IH] [| y rt] [| j] //= Hpt Hrt Hj Hj'.
  - have Hx := Hpt x (or_introl erefl). have Hy := Hrt y (or_introl erefl).
    rewrite phi_mod zr_mod; last exact: p_gt1.
    have Ha0 := phi_nonneg a. have Hb0 := phi_nonneg b.
    have Hx0 := phi_nonneg x. have Hy0 := phi_nonneg y. have := p_bounds => Hpb.
    rewrite phi_add_sq ?phi_mul_le ?phi_sub_small; try nia.
    rewrite zrD !zrM zr_sub_p. by rewrite mulNr.
  - apply: IH => //; [move=> x' H; apply: Hpt; by right | move=> y' H; apply: Hrt; by right].
Qed.

Lemma elim_tail_size a b pt rt n : size pt = n -> size rt = n -> size (elim_tail P a b pt rt) = n.
Proof. by elim: pt rt n => [| x pt IH] [| y rt] [| n] //= [Hp'] [Hr]; rewrite (IH rt n). Qed.

Lemma elim_tail_lt a b pt rt x : List.In x (elim_tail P a b pt rt) -> (φ x < p)%Z.
Proof.
  elim: pt rt => [| x0 pt IH] [| y rt] //= [<- | H]; [exact: phi_mod_lt | exact: (IH rt)].
Qed.

(** A nonzero residue is a unit of [Z/p] when [p] is prime. *)
Lemma zr_unit z : prime pn -> (0 < z < p)%Z -> (zr z : 'Z_pn) \is a GRing.unit.
Proof.
  move=> Hpr Hz. have -> : zr z = (Z.to_nat z)%:R :> 'Z_pn.
    rewrite /zr. have -> : Z.to_nat (Z.opp z) = 0%N by lia. by rewrite subr0.
  rewrite unitZpE ?prime_coprime //; last by apply/ltP; have := p_bounds; lia.
  apply/negP => /dvdn_leq H. have : (pn <= Z.to_nat z)%N by apply: H; apply/ltP; lia.
  move/leP. lia.
Qed.

Lemma In_nth {A : Type} (d : A) l i : (i < size l)%N -> List.In (nth d l i) l.
Proof. elim: l i => [| x l IH] [| i] //= H; [by left | right; exact: IH]. Qed.

Lemma ulsub_imx n a pt rest :
  ulsubmx (imx n.+1 ((a :: pt) :: rest) : 'M_(1 + n)) = (zr (φ a))%:M.
Proof. apply/matrixP => i j. by rewrite !ord1 !mxE /= ?eqxx ?mulr1n. Qed.

(** The eliminated block [a D - v u] is the matrix of the rows [elim_row pivot row]. *)
Lemma elim_block_imx n a pt rest : rows_ok n.+1 ((a :: pt) :: rest) ->
  let A : 'M_(1 + n) := imx n.+1 ((a :: pt) :: rest) in
  zr (φ a) *: drsubmx A - dlsubmx A *m ursubmx A = imx n (List.map (elim_row P (a :: pt)) rest).
Proof.
  move=> [Hsz Hrows] A. apply/matrixP => i j.
  have [Hpt Hpt'] := Hrows _ (or_introl erefl).
  have Hi : (i < size rest)%N by move: Hsz => /= [->].
  have Hin := Hrows _ (or_intror (In_nth [::] _ _ Hi)).
  case Er : (nth [::] rest i) Hin => [| b rt] [Hr Hr'] //.
  rewrite [in RHS]imx_E !mxE big_ord1 !mxE /=.
  rewrite List_map_map (nth_map [::]) // Er /=.
  move: Hpt Hr => [Hpt] [Hr].
  rewrite elim_tail_nth ?Hpt ?Hr //.
  - exact: Hpt' (or_introl erefl).
  - exact: Hr' (or_introl erefl).
  - by move=> x Hx; apply: Hpt'; right.
  - by move=> y Hy; apply: Hr'; right.
Qed.

Lemma rows_ok_elim n a pt rest : rows_ok n.+1 ((a :: pt) :: rest) ->
  rows_ok n (List.map (elim_row P (a :: pt)) rest).
Proof.
  move=> [[Hsz] Hrows]. split; first by rewrite List_map_map size_map.
  have [[Hpt] _] := Hrows _ (or_introl erefl).
  move=> row' /List.in_map_iff [row [<- Hin]].
  have [Hr Hr'] := Hrows _ (or_intror Hin).
  case: row Hr Hr' {Hin} => [| b rt] //= [Hr] _.
  split; [exact: elim_tail_size | exact: elim_tail_lt].
Qed.

Lemma rows_ok_pivot n pre piv post : rows_ok n (pre ++ piv :: post) ->
  rows_ok n (piv :: pre ++ post).
Proof.
  move=> [Hsz Hrows]. split.
  - by rewrite /= size_cat -Hsz size_cat /= addnS.
  - move=> row Hin. apply: Hrows. apply/In_cat. move: Hin => /= [<- | /In_cat [H | H]].
    + by right; left.
    + by left.
    + by right; right.
Qed.

(** The elimination succeeds on [n] rows of [n] residues: their matrix is invertible mod p. *)
Lemma nonsingular_mod_unit n M : prime pn -> rows_ok n M ->
  nonsingular_mod P n M = true -> imx n M \in unitmx.
Proof.
  move=> Hpr. elim: n M => [| n IH] M Hok /=.
  - by rewrite unitmxE det_mx00 unitr1.
  case Hpp: (pick_pivot M) => [[piv rest] |] // Hns.
  have [pre [post [EM [Er Hlead]]]] := pick_pivot_spec _ _ _ Hpp.
  have Hk : (size pre < n.+1)%N.
    by move: Hok => [Hsz _]; rewrite -Hsz EM size_cat /= addnS ltnS leq_addr.
  pose k : 'I_n.+1 := Ordinal Hk.
  have Hperm := @imx_pivot n pre piv post k (lift_perm ord0 k 1%g) erefl
    (lift_perm_id _ _ _) (fun i => etrans (lift_perm_lift _ _ _ i) (congr1 (lift k) (perm1 i))).
  have Hok' := rows_ok_pivot _ _ _ _ (eq_ind _ (rows_ok n.+1) Hok _ EM).
  rewrite -Er in Hok'.
  suff U : imx n.+1 (piv :: rest) \in unitmx.
    move: U. rewrite Er -Hperm row_permE unitmx_mul EM. by case/andP.
  case: piv Hlead Hok' Hns {Hpp EM Hperm} => [| a pt] // Hlead Hok' Hns.
  apply: (@elim_step_unit _ n _ (zr (φ a))).
  - exact: ulsub_imx.
  - apply: zr_unit => //. have [_ Hrows] := Hok'. have [_ Ha] := Hrows _ (or_introl erefl).
    have := Ha a (or_introl erefl). have := phi_nonneg a.
    move: Hlead => /= /negbTE Hne. have : φ a <> 0%Z.
      move=> H0. have E : a = 0%uint63 by apply: Uint63.to_Z_inj; rewrite H0 Uint63.to_Z_0.
      by rewrite E Uint63.eqb_refl in Hne.
    lia.
  - rewrite elim_block_imx //. apply: IH => //. exact: rows_ok_elim.
Qed.

(** * Two columns per pass: [nonsingular2_mod] is [nonsingular_mod] *)

Definition bounded (M : list (list int)) : Prop :=
  forall row, List.In row M -> forall x, List.In x row -> (φ x < p)%Z.

Lemma elim_row_lt piv row x : List.In x (elim_row P piv row) -> (φ x < p)%Z.
Proof. case: piv row => [| a pt] [| b rt] //=. exact: elim_tail_lt. Qed.

Lemma bounded_elim piv rows : bounded (List.map (elim_row P piv) rows).
Proof. move=> row' /List.in_map_iff [row [<- _]] x. exact: elim_row_lt. Qed.

Lemma phi_muladd_mod u v w z : (φ u <= p)%Z -> (φ v <= p)%Z -> (φ w <= p)%Z -> (φ z <= p)%Z ->
  φ (PrimInt63.mod (PrimInt63.add (PrimInt63.mul u v) (PrimInt63.mul w z)) P) =
  ((φ u * φ v + φ w * φ z) mod p)%Z.
Proof.
  move=> Hu Hv Hw Hz. have := phi_nonneg u. have := phi_nonneg v. have := phi_nonneg w.
  have := phi_nonneg z. have := p_bounds => *.
  rewrite phi_mod phi_add_sq; rewrite ?phi_mul_le //; nia.
Qed.

Lemma phi_addmul_mod t w z : (φ t <= p * p)%Z -> (φ w <= p)%Z -> (φ z <= p)%Z ->
  φ (PrimInt63.mod (PrimInt63.add t (PrimInt63.mul w z)) P) = ((φ t + φ w * φ z) mod p)%Z.
Proof.
  move=> Ht Hw Hz. have := phi_nonneg t. have := phi_nonneg w. have := phi_nonneg z.
  have := p_bounds => *.
  rewrite phi_mod phi_add_sq; rewrite ?phi_mul_le //; nia.
Qed.

(** One cell: [elim2_tail]'s formula is two steps of [elim_tail] (residues below [p]). *)
Lemma elim2_cell a b d e x q y : (φ a < p)%Z -> (φ b < p)%Z -> (φ d < p)%Z ->
  (φ e < p)%Z -> (φ x < p)%Z -> (φ q < p)%Z -> (φ y < p)%Z ->
  PrimInt63.mod (PrimInt63.add
    (PrimInt63.mod (PrimInt63.add (PrimInt63.mul (PrimInt63.mod (PrimInt63.mul d a) P) y)
       (PrimInt63.mul (PrimInt63.mod (PrimInt63.mul d (PrimInt63.sub P b)) P) x)) P)
    (PrimInt63.mul (PrimInt63.sub P e) q)) P =
  PrimInt63.mod (PrimInt63.add
    (PrimInt63.mul d
       (PrimInt63.mod (PrimInt63.add (PrimInt63.mul a y) (PrimInt63.mul (PrimInt63.sub P b) x)) P))
    (PrimInt63.mul (PrimInt63.sub P e) q)) P.
Proof.
  move=> Ha Hb Hd He Hx Hq Hy. have := p_bounds => Hpb.
  have Ha0 := phi_nonneg a. have Hb0 := phi_nonneg b. have Hd0 := phi_nonneg d.
  have He0 := phi_nonneg e. have Hx0 := phi_nonneg x. have Hq0 := phi_nonneg q.
  have Hy0 := phi_nonneg y.
  have Hnb := phi_sub_small b Hb. have Hne := phi_sub_small e He.
  apply: Uint63.to_Z_inj.
  set A := PrimInt63.mod (PrimInt63.mul d a) P.
  set B := PrimInt63.mod (PrimInt63.mul d (PrimInt63.sub P b)) P.
  set T := PrimInt63.mod (PrimInt63.add (PrimInt63.mul a y) (PrimInt63.mul (PrimInt63.sub P b) x)) P.
  set U := PrimInt63.mod (PrimInt63.add (PrimInt63.mul A y) (PrimInt63.mul B x)) P.
  have HA : φ A = ((φ d * φ a) mod p)%Z by rewrite /A phi_mod phi_mul_le; lia.
  have HB : φ B = ((φ d * (p - φ b)) mod p)%Z by rewrite /B phi_mod phi_mul_le ?Hnb; lia.
  have HA1 : (φ A < p)%Z by exact: phi_mod_lt. have HB1 : (φ B < p)%Z by exact: phi_mod_lt.
  have HT1 : (φ T < p)%Z by exact: phi_mod_lt. have HU1 : (φ U < p)%Z by exact: phi_mod_lt.
  have HT0 := phi_nonneg T. have HU0 := phi_nonneg U.
  have HT : φ T = ((φ a * φ y + (p - φ b) * φ x) mod p)%Z.
    by rewrite /T phi_muladd_mod ?Hnb //; lia.
  have HU : φ U = ((φ A * φ y + φ B * φ x) mod p)%Z by rewrite /U phi_muladd_mod //; lia.
  rewrite phi_addmul_mod ?Hne; try nia.
  rewrite phi_muladd_mod ?Hne; try lia.
  rewrite HU HA HB HT. apply: fused_cell_mod. lia.
Qed.

Lemma elim2_tail_eq a b d pt qt rt : (φ a < p)%Z -> (φ b < p)%Z -> (φ d < p)%Z ->
  forall e, (φ e < p)%Z ->
  (forall x, List.In x pt -> (φ x < p)%Z) -> (forall q, List.In q qt -> (φ q < p)%Z) ->
  (forall y, List.In y rt -> (φ y < p)%Z) ->
  elim2_tail P (PrimInt63.mod (PrimInt63.mul d a) P)
    (PrimInt63.mod (PrimInt63.mul d (PrimInt63.sub P b)) P) (PrimInt63.sub P e) pt qt rt =
  elim_tail P d e qt (elim_tail P a b pt rt).
Proof.
  move=> Ha Hb Hd e He.
  elim: pt qt rt => [| x pt IH] [| q qt] [| y rt] //= Hpt Hqt Hrt.
  rewrite IH; last first.
  - by move=> y' H; apply: Hrt; right.
  - by move=> q' H; apply: Hqt; right.
  - by move=> x' H; apply: Hpt; right.
  congr (_ :: _). apply: elim2_cell => //.
  - exact: Hpt (or_introl erefl).
  - exact: Hqt (or_introl erefl).
  - exact: Hrt (or_introl erefl).
Qed.

Lemma elim2_row_eq piv q row : bounded [:: piv; q; row] ->
  elim2_row P piv q row = elim_row P q (elim_row P piv row).
Proof.
  move=> Hb.
  have Hpv := Hb piv (or_introl erefl). have Hq := Hb q (or_intror (or_introl erefl)).
  have Hr := Hb row (or_intror (or_intror (or_introl erefl))). clear Hb.
  case: piv Hpv => [| a [| x0 pt]] Hpv //=; first by case: q {Hq}.
  - by case: row Hr => [| b rt] //= _; case: q {Hq}.
  case: q Hq => [| d qt] Hq; first by case: row Hr => [| b [| y0 rt]].
  case: row Hr => [| b [| y0 rt]] Hr //=.
  apply: elim2_tail_eq.
  - exact: Hpv (or_introl erefl).
  - exact: Hr (or_introl erefl).
  - exact: Hq (or_introl erefl).
  - exact: phi_mod_lt.
  - by move=> x H; apply: Hpv; right; right.
  - by move=> x H; apply: Hq; right.
  - by move=> x H; apply: Hr; right; right.
Qed.

Lemma pick_pivot2_map piv rows :
  pick_pivot (List.map (elim_row P piv) rows) =
  match pick_pivot2 P piv rows with
  | None => None
  | Some (q, rest) => Some (q, List.map (elim_row P piv) rest)
  end.
Proof.
  elim: rows => [| row rows IH] //=.
  case: (lead_nonzero (elim_row P piv row)) => //. rewrite IH.
  by case: (pick_pivot2 P piv rows) => [[q rest] |].
Qed.

Lemma pick_pivot2_sub piv rows q rest : pick_pivot2 P piv rows = Some (q, rest) ->
  (forall r, List.In r rest -> List.In r rows) /\
  exists row, List.In row rows /\ q = elim_row P piv row.
Proof.
  elim: rows rest => [| row rows IH] rest //=.
  case: (lead_nonzero (elim_row P piv row)).
  - case=> <- <-. split; [by move=> r H; right | by exists row; split; [left |]].
  - case E: (pick_pivot2 P piv rows) => [[q' rest'] |] //. case=> Eq <-. subst q'.
    have [Hs [row0 [Hin Hq]]] := IH _ E. split.
    + move=> r /= [<- | H]; [by left | by right; apply: Hs].
    + by exists row0; split; [right |].
Qed.

Lemma nonsingular2_mod_eq n M : bounded M -> nonsingular2_mod P n M = nonsingular_mod P n M.
Proof.
  suff H : forall n, (forall M, bounded M -> nonsingular2_mod P n M = nonsingular_mod P n M) /\
                     (forall M, bounded M -> nonsingular2_mod P n.+1 M = nonsingular_mod P n.+1 M).
    by case: (H n) => H1 _; exact: H1.
  clear n M. elim=> [| n [IH1 IH2]]; first by split.
  split; first exact: IH2.
  move=> M0 Hb. rewrite [LHS]/= [RHS]/=.
  case Hpp: (pick_pivot M0) => [[piv rest] |] //.
  have [pre [post [EM [Er _]]]] := pick_pivot_spec _ _ _ Hpp.
  have Hpiv : forall x, List.In x piv -> (φ x < p)%Z.
    by apply: Hb; rewrite EM; apply/In_cat; right; left.
  have Hrest : bounded rest.
    move=> r Hr; apply: Hb; rewrite EM; apply/In_cat.
    by move: Hr; rewrite Er => /In_cat [H | H]; [left | right; right].
  rewrite pick_pivot2_map.
  case E2: (pick_pivot2 P piv rest) => [[q rest2] |] //.
  have [Hsub [row0 [_ Hq]]] := pick_pivot2_sub _ _ _ _ E2.
  have -> : List.map (elim2_row P piv q) rest2 =
            List.map (elim_row P q) (List.map (elim_row P piv) rest2).
    rewrite List.map_map. apply: List.map_ext_in => row Hrow. apply: elim2_row_eq.
    move=> r /= [<- | [<- | [<- | []]]] //.
    - by rewrite Hq; apply: elim_row_lt.
    - exact: Hrest (Hsub _ Hrow).
  apply: IH1. exact: bounded_elim.
Qed.

Lemma rows_ok_bounded n M : rows_ok n M -> bounded M.
Proof. by move=> [_ H] row Hr; case: (H row Hr). Qed.

(** * From the kernel check to the minor *)

Lemma nth_int_reduce row c :
  φ (nth_int (List.map (fun v => PrimInt63.mod v P) row) c) = (φ (nth_int row c) mod p)%Z.
Proof.
  elim: row c => [| x row IH] [| c] //=; try exact: phi_mod; try exact: IH.
  all: by rewrite Uint63.to_Z_0 Z.mod_0_l //; have := p_gt1; lia.
Qed.

Lemma nth_int_cols row cols b : (b < size cols)%N ->
  nth_int (List.map (fun c => nth_int row c) cols) b = nth_int row (nth 0%N cols b).
Proof. by elim: cols b => [| c cols IH] [| b] //= Hb; rewrite IH. Qed.

Lemma nth_minor_rows rows cols a : (a < size rows)%N ->
  nth [::] (minor_rows rows cols) a = List.map (fun c => nth_int (nth [::] rows a) c) cols.
Proof. by elim: rows a => [| row rows IH] [| a] //= Ha; rewrite IH. Qed.

Lemma nth_reduce rows a : nth [::] (reduce_int_rows P rows) a =
  List.map (fun v => PrimInt63.mod v P) (nth [::] rows a).
Proof. by elim: rows a => [| row rows IH] [| a] //=. Qed.

Lemma size_minor_rows rows cols : size (minor_rows (reduce_int_rows P rows) cols) = size rows.
Proof. by rewrite /minor_rows /reduce_int_rows !List_map_map !size_map. Qed.

Lemma rows_ok_minor rows cols r : size cols = r -> size rows = r ->
  rows_ok r (minor_rows (reduce_int_rows P rows) cols).
Proof.
  move=> Hc Hr. split; first by rewrite size_minor_rows.
  move=> row /List.in_map_iff [rowR [<- /List.in_map_iff [row0 [<- _]]]].
  split; first by rewrite List_map_map size_map.
  move=> x /List.in_map_iff [c [<- _]]. rewrite nth_int_reduce.
  have := Z.mod_pos_bound (φ (nth_int row0 c)) p. have := p_gt1. lia.
Qed.

(** [p] prime and [check_minor] (fraction-free elimination mod p on the columns [cols] of the
    reduced [rows]) succeeds: the [r x r] minor of the residues on [rows] and [cols] is a unit
    matrix over [Z/p], i.e. its determinant is nonzero mod p. *)
Theorem check_minor_unit n r rows cols : prime_ok p = true ->
  check_minor p n r rows cols = true ->
  (\matrix_(a < r, b < r)
     (zr (φ (nth_int (List.nth a rows nil) (List.nth b cols 0%N))) : 'Z_(Z.to_nat p)))
    \in unitmx.
Proof.
  move=> Hpr. rewrite /check_minor => /andP [/andP [/andP [/Nat.eqb_eq Hr /Nat.eqb_eq Hc] _] Hns].
  rewrite select_minor_eq in Hns.
  rewrite length_size in Hr. rewrite length_size in Hc.
  have Hok := rows_ok_minor rows cols r Hc Hr.
  have -> : \matrix_(a < r, b < r)
     (zr (φ (nth_int (List.nth a rows nil) (List.nth b cols 0%N))) : 'Z_(Z.to_nat p)) =
     imx r (minor_rows (reduce_int_rows P rows) cols).
    apply/matrixP => a b. rewrite [in RHS]imx_E mxE.
    rewrite nth_minor_rows; last by rewrite /reduce_int_rows List_map_map size_map Hr.
    rewrite nth_int_cols ?Hc // nth_reduce nth_int_reduce zr_mod; last exact: p_gt1.
    by rewrite !List_nth_nth.
  rewrite nonsingular2_mod_eq in Hns; last exact: rows_ok_bounded Hok.
  exact: (nonsingular_mod_unit _ _ (prime_ok_prime _ Hpr) Hok Hns).
Qed.

(** The rational form: an [r x r] matrix over Q whose entries are related by [Rq] to the
    residues of the minor that [check_minor] eliminated is invertible ([det != 0 mod p]
    forces [det != 0] over Q). *)
Corollary check_minor_rat_unit n r rows cols (A : 'M[rat]_r) : prime_ok p = true ->
  check_minor p n r rows cols = true ->
  (forall a b : 'I_r,
     Rq p (A a b) (zr (φ (nth_int (List.nth a rows nil) (List.nth b cols 0%N))))) ->
  A \in unitmx.
Proof.
  move=> Hpr Hc HR. have U := check_minor_unit n r rows cols Hpr Hc.
  rewrite unitmxE unitfE. apply: (Rq_nonzero p _ _ (Rq_det p _ A _ _)); last first.
  - by rewrite -unitmxE; exact: U.
  - move=> a b. rewrite mxE. exact: HR.
Qed.
End Residues.
