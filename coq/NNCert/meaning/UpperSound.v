(** The upper-bound checks mean what they say (issue 15, phase 2), MathComp 1.15.
    Main theorems: [mlp_rank_upper_sound] (Rank.v [check_rank_upper]) and
    [resnet_rank_upper_sound] (ResNet.v [check_rank_upper_resnet]): if the kernel's check
    succeeds and [p] is prime ([prime_ok], ElimSound.v), the Jacobian of
    [theta -> (f_theta(x))_(x in L)] at the instance's [theta], [L] the principal lattice
    [{x in N^d0 : |x| <= D}] ([lattice], Lists.v), [D] the degree of [f] in [x], has rank
    [<= u] over Q. The lattice is unisolvent for polynomials of total degree [<= D] (cited,
    not proved here), so this is the rank at [theta] of the differential of
    [theta -> f_theta] as a map into functions of all inputs.
    The proof:
    - general linear algebra ([rank_le_of_kernel], [rank_upper_of_rows]): [s] independent
      vectors orthogonal to every row of [J] give [\rank J + s <= n];
    - independence ([independent_rank]): a minor of the tangents that is a unit mod a prime
      (the kernel's elimination, ElimSound.v [check_minor_unit]) is a nonzero rational
      determinant;
    - orthogonality: the kernel's rows (reverse mode, Net.v [net_row], ResNet.v [resnet_row])
      over exact rational pairs are related to the rows over [rat] by [RQ] (RankMeaning.v),
      over primitive integers mod [q] to the rows over [Z] by "reduces mod [q] to", and the rows
      over [Z] are bounded entrywise by the rows at [|theta|], [|coefficients|],
      [(D, ..., D)] ([|.| <= .] respects [0, 1, +, *]); a dot product that vanishes mod
      pairwise coprime moduli whose product exceeds its bound is [0] (CheckerSound.v
      [moduli_exact]); the rows over [rat] are the Jacobian rows (Backprop.v [mlp_backprop],
      BackpropResNet.v [resnet_backprop]).
    Axioms: only the specification axioms of Coq's primitive integers (Uint63). *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet CheckerSound Jacobian RankMeaning.
From NNCert Require Import ReverseModeRel Backprop BackpropResNet ElimSound.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import div bigop ssralg poly matrix mxalgebra zmodp rat.
Import GRing.Theory.
Local Open Scope ring_scope.

Local Notation "'φ' x" := (Uint63.to_Z x) (at level 0).

(** * General linear algebra *)

(** [s] independent vectors (the rows of [T]) in the kernel of [J] ([J T^T = 0]):
    [\rank J + s <= n]. *)
Lemma rank_le_of_kernel (F : fieldType) m n s (J : 'M[F]_(m, n)) (T : 'M[F]_(s, n)) :
  J *m T^T = 0 -> \rank T = s -> (\rank J + s <= n)%N.
Proof.
  move=> JT rT.
  have H : (T <= kermx J^T)%MS by apply/sub_kermxP; rewrite -[T]trmxK -trmx_mul JT trmx0.
  have := mxrankS H. rewrite mxrank_ker mxrank_tr rT => Hs.
  have E := subnKC (rank_leq_col J).
  by rewrite -[X in (_ <= X)%N]E leq_add2l.
Qed.

(** [xs . ys = sum_(j < n) xs[j] ys[j]] when [|ys| = n] ([0] past the end of [xs]). *)
Lemma dot_sum (R : ringType) (xs ys : list R) n : length ys = n ->
  dot (arith_ring R) xs ys = \sum_(j < n) List.nth j xs 0 * List.nth j ys 0.
Proof.
  elim: ys xs n => [| y ys IH] xs n <- /=.
  - by rewrite big_ord0; case: xs.
  - rewrite big_ord_recl /=. case: xs => [| x xs] /=.
    + by rewrite mul0r add0r big1 // => j _; rewrite mul0r.
    + by rewrite (IH xs (length ys)).
Qed.

(** Entry [j] of the image of an integer vector in Q is the image of entry [j]. *)
Lemma nth_map_zr (t : list Z) j : List.nth j (List.map zr t) 0 = zr (List.nth j t 0%Z) :> rat.
Proof. by elim: t j => [| x t IH] [| j] //=; rewrite zr0. Qed.

(** Every row [i] of [J] (entry [j]: [Jf i j]) is orthogonal to every tangent:
    [J T^T = 0]. *)
Lemma jac_mul_tangents0 m n (Jf : nat -> nat -> rat) (ts : list (list Z)) :
  (forall i l, (i < m)%N -> (l < length ts)%N ->
     \sum_(j < n) Jf i j * zr (List.nth j (nth_row ts l) 0%Z) = 0) ->
  (\matrix_(i < m, j < n) Jf i j) *m (tangent_matrix ts n)^T = 0.
Proof.
  move=> H. apply/matrixP => i l. rewrite !mxE.
  under eq_bigr do rewrite !mxE. exact: H.
Qed.

Lemma nth_row_In {A : Type} (ts : list (list A)) l : (l < length ts)%N -> In (nth_row ts l) ts.
Proof. move=> Hl. rewrite nth_row_nth. apply: nth_In. exact/ltP. Qed.

(** The shared conclusion: [J] ([m x n], row [i] the list [rowf i] of [n] rationals) has
    every row orthogonal to the [s] tangents [ts], which are independent over Q, and
    [u + s = n]: [\rank J <= u]. *)
Lemma rank_upper_of_rows m n u (Jf : nat -> nat -> rat) (rowf : nat -> list rat)
    (ts : list (list Z)) :
  (forall i j, (i < m)%N -> (j < n)%N -> Jf i j = List.nth j (rowf i) 0) ->
  (forall i, (i < m)%N -> length (rowf i) = n) ->
  (forall i t, (i < m)%N -> In t ts ->
     dot (arith_ring _ : arith rat) (rowf i) (List.map zr t) = 0) ->
  \rank (tangent_matrix ts n) = length ts -> Nat.add u (length ts) = n ->
  (\rank (\matrix_(i < m, j < n) Jf i j) <= u)%N.
Proof.
  move=> HJ Hlen Horth Hrank Hu.
  have K := rank_le_of_kernel _ _ _ _ _ _ (jac_mul_tangents0 m n Jf ts _) Hrank.
  rewrite -(leq_add2r (length ts)). apply: leq_trans (K _) _; last by rewrite -Hu.
  move=> i l Hi Hl. have := Horth i (nth_row ts l) Hi (nth_row_In _ _ Hl).
  rewrite dotC (dot_sum _ _ _ n (Hlen i Hi)) => E. apply: etrans E. apply: eq_bigr => j _.
  by rewrite HJ // nth_map_zr mulrC.
Qed.

(** Independence: an [s x s] minor of the tangents (columns [cols]) whose residues mod [p]
    form a unit matrix over [Z/p] is a nonzero rational determinant: [\rank T = s]. *)
Lemma independent_rank_of_unit (p : Z) n (ts : list (list Z)) (cols : list nat) :
  (1 < p)%Z -> length cols = length ts -> all_lt n cols = true ->
  (\matrix_(a < length ts, b < length ts)
     zr (List.nth (List.nth b cols 0%N) (nth_row ts a) 0%Z) : 'M['Z_(Z.to_nat p)]_(length ts))
    \in unitmx ->
  \rank (tangent_matrix ts n) = length ts.
Proof.
  move=> Hp Hlc Hcols U. apply/eqP. rewrite eqn_leq rank_leq_row /=.
  have Hc : forall b : 'I_(length ts), (List.nth b cols 0%N < n)%N.
    move=> b. apply: all_lt_nth => //. by rewrite Hlc.
  pose g (b : 'I_(length ts)) : 'I_n := Ordinal (Hc b).
  apply: (@rank_of_minor _ _ _ _ id g).
  rewrite unitmxE unitfE. apply: (@Rq_nonzero p _ _ _ (U : _ \is a GRing.unit)).
  apply: Rq_det => a b. rewrite !mxE. exact: Rq_int.
Qed.

(** Entry [c] of the residues of an integer vector is the residue of entry [c]. *)
Lemma nth_int_ints_mod p (t : list Z) c : p_ok p = true ->
  φ (nth_int (ints_mod p t) c) = (List.nth c t 0%Z mod p)%Z.
Proof.
  move=> Hp. have H0 : φ 0%uint63 = (0 mod p)%Z.
    by rewrite Uint63.to_Z_0 Z.mod_0_l //; have := p_gt1 p Hp; lia.
  elim: t c => [| z t IH] [| c]; [exact: H0 | exact: H0 | | exact: IH].
  rewrite /ints_mod /=. exact: (phi_of_Z_mod p Hp).
Qed.

(** Independence from the kernel's minor: if the [s x s] minor of the tangents' residues
    (the rows [ints_mod p t], columns [cols]) is a unit matrix over [Z/p], the tangents are
    independent over Q. *)
Lemma independent_rank_of_minor (p : Z) n (ts : list (list Z)) (cols : list nat) :
  p_ok p = true -> length cols = length ts -> all_lt n cols = true ->
  (\matrix_(a < length ts, b < length ts)
     zr (φ (nth_int (List.nth a (List.map (ints_mod p) ts) nil) (List.nth b cols 0%N)))
     : 'M['Z_(Z.to_nat p)]_(length ts)) \in unitmx ->
  \rank (tangent_matrix ts n) = length ts.
Proof.
  move=> Hp Hlc Hcols U. apply: (independent_rank_of_unit p n ts cols) => //; first exact: p_gt1.
  set M := (X in X \in unitmx) in U.
  suff -> : (\matrix_(a < length ts, b < length ts)
     zr (List.nth (List.nth b cols 0%N) (nth_row ts a) 0%Z) : 'M['Z_(Z.to_nat p)]_(length ts))
    = M by [].
  apply/matrixP => a b. rewrite !mxE.
  have -> : List.nth a (List.map (ints_mod p) ts) nil = ints_mod p (List.nth a ts nil).
    by rewrite -(List.map_nth (ints_mod p) ts nil a).
  by rewrite (nth_int_ints_mod _ _ _ Hp) (zr_mod p (p_gt1 p Hp)) nth_row_nth.
Qed.

(** * Exact rows: the kernel's dot products over rational pairs *)

(** A row over [rat] related by [RQ] to the kernel's row of pairs: if the pair
    [row . t] has numerator [0], the rational [row . t] is [0]. *)
Lemma orth_of_exact (rowQ : list rat) (rowP : list (Z * Z)) (t : list Z) :
  Forall2 RQ rowQ rowP -> fst (dot arith_q rowP (ints_q t)) = 0%Z ->
  dot (arith_ring _ : arith rat) rowQ (List.map zr t) = 0.
Proof.
  move=> H E.
  have Ht : Forall2 RQ (List.map zr t) (ints_q t).
    by elim: t {E} => [| z t IH] //=; constructor; [exact: RQ_int | exact: IH].
  have [_ ->] := dot_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQadd RQmul _ _ _ _ H Ht.
  by rewrite /q_of E zr0 mul0r.
Qed.

(** * Rows mod q: integers, residues and bounds *)

(** [q] is the image of the integer [z]. *)
Definition RZ (q : rat) (z : Z) : Prop := q = zr z.

Lemma RZ0 : RZ 0 0%Z. Proof. by rewrite /RZ zr0. Qed.
Lemma RZ1 : RZ 1 1%Z. Proof. by rewrite /RZ zr1. Qed.
Lemma RZadd a a' b b' : RZ a b -> RZ a' b' ->
  RZ (add (arith_ring _ : arith rat) a a') (add arith_z b b').
Proof. by rewrite /RZ /= zrD => -> ->. Qed.
Lemma RZmul a a' b b' : RZ a b -> RZ a' b' ->
  RZ (mul (arith_ring _ : arith rat) a a') (mul arith_z b b').
Proof. by rewrite /RZ /= zrM => -> ->. Qed.

(** [|z| <= b]: the bound rows dominate the integer rows entrywise. *)
Definition RB (z b : Z) : Prop := (Z.abs z <= b)%Z.

Lemma RB0 : RB 0 0. Proof. by []. Qed.
Lemma RB1 : RB 1 1. Proof. by []. Qed.
Lemma RBadd a a' b b' : RB a b -> RB a' b' -> RB (add arith_z a a') (add arith_z b b').
Proof. rewrite /RB /= => H H'. have := Z.abs_triangle a a'. lia. Qed.
Lemma RBmul a a' b b' : RB a b -> RB a' b' -> RB (mul arith_z a a') (mul arith_z b b').
Proof.
  rewrite /RB /= Z.abs_mul => H H'.
  apply: Z.mul_le_mono_nonneg => //; exact: Z.abs_nonneg.
Qed.

(** The row bound: [|row . t| <= sum_i bs[i] |t[i]|] ([weighted_abs]). *)
Lemma dot_weighted_abs (zs bs t : list Z) : Forall2 RB zs bs ->
  (Z.abs (dot arith_z zs t) <= weighted_abs bs t)%Z.
Proof.
  move=> H. elim: H t => [| z b zs' bs' Hz _ IH] [| x t] //=.
  have := IH t. have := Z.abs_triangle (z * x) (dot arith_z zs t). rewrite Z.abs_mul.
  have : (Z.abs z * Z.abs x <= b * Z.abs x)%Z
    by apply: Z.mul_le_mono_nonneg_r; [exact: Z.abs_nonneg | exact: Hz].
  lia.
Qed.

(** [kill_bound] is the largest [weighted_abs bs t]. *)
Lemma kill_bound_fold bs ts acc :
  (acc <= fold_right (fun t acc' => Z.max acc' (weighted_abs bs t)) acc ts)%Z /\
  (forall t, In t ts ->
     (weighted_abs bs t <= fold_right (fun t acc' => Z.max acc' (weighted_abs bs t)) acc ts)%Z).
Proof.
  elim: ts => [| t ts [IH1 IH2]] /=; first by split; [lia | move=> ? []].
  split; first lia.
  move=> t' [<- | Ht]; first lia. have := IH2 t' Ht. lia.
Qed.

Lemma kill_bound_ge bounds ts bs t : In bs bounds -> In t ts ->
  (weighted_abs bs t <= kill_bound bounds ts)%Z.
Proof.
  rewrite /kill_bound. elim: bounds => [| bs' bounds IH] /= Hb Ht; first by case: Hb.
  case: Hb => [-> | Hb].
  - have [_ H] := kill_bound_fold bs ts (fold_right
      (fun bs acc => fold_right (fun t acc' => Z.max acc' (weighted_abs bs t)) acc ts) 0%Z bounds).
    exact: H.
  - have [H _] := kill_bound_fold bs' ts (fold_right
      (fun bs acc => fold_right (fun t acc' => Z.max acc' (weighted_abs bs t)) acc ts) 0%Z bounds).
    have := IH Hb Ht. lia.
Qed.

Section Modulus.
Variable q : Z.
Hypothesis Hq : p_ok q = true.
Local Notation Q := (Uint63.of_Z q).

(** The residue [x] (a primitive integer) is [z mod q]. *)
Definition RM (z : Z) (x : int) : Prop := φ x = (z mod q)%Z.

Lemma RM_lt z x : RM z x -> (φ x < q)%Z.
Proof.
  rewrite /RM => ->. have := Z.mod_pos_bound z q (Z.lt_trans _ _ _ Z.lt_0_1 (p_gt1 q Hq)). lia.
Qed.

Lemma RM0 : RM 0 (zero (arith_mod Q)).
Proof. by rewrite /RM /= Uint63.to_Z_0 Z.mod_0_l //; have := p_gt1 q Hq; lia. Qed.

Lemma RM1 : RM 1 (one (arith_mod Q)).
Proof. rewrite /RM /= Uint63.to_Z_1 Z.mod_1_l //. exact: p_gt1. Qed.

Lemma RMadd a a' b b' : RM a b -> RM a' b' -> RM (add arith_z a a') (add (arith_mod Q) b b').
Proof.
  move=> H H'. rewrite /RM /= (phi_mod q Hq) (phi_add_small q Hq _ _ (RM_lt _ _ H) (RM_lt _ _ H')).
  by rewrite H H' -Zplus_mod.
Qed.

Lemma RMmul a a' b b' : RM a b -> RM a' b' -> RM (mul arith_z a a') (mul (arith_mod Q) b b').
Proof.
  move=> H H'. rewrite /RM /= (phi_mod q Hq) (phi_mul_small q Hq _ _ (RM_lt _ _ H) (RM_lt _ _ H')).
  by rewrite H H' -Z.mul_mod //; have := p_gt1 q Hq; lia.
Qed.

Lemma RM_ints (zs : list Z) : Forall2 RM zs (ints_mod q zs).
Proof. elim: zs => [| z zs IH] //=. constructor; [exact: (phi_of_Z_mod q Hq) | exact: IH]. Qed.

(** The kernel's [dot_mod] (products not reduced before the sum: [x y + acc < 2^63]) is the
    residue of the integer dot product. *)
Lemma dot_mod_RM (zs ts : list Z) (xs ys : list int) : Forall2 RM zs xs -> Forall2 RM ts ys ->
  φ (dot_mod Q xs ys) = (dot arith_z zs ts mod q)%Z.
Proof.
  have [Hq1 Hq2] := p_bounds q Hq.
  move=> H. elim: H ts ys => [| z x zs' xs' Hzx _ IH] ts ys Hty.
  - by rewrite /= Uint63.to_Z_0 Z.mod_0_l //; lia.
  - case: Hty => [| t y ts' ys' Hty Hts] /=; first by rewrite Uint63.to_Z_0 Z.mod_0_l //; lia.
    rewrite Uint63.mod_spec (phiP q Hq).
    have Hx := RM_lt _ _ Hzx. have Hy := RM_lt _ _ Hty.
    have Hd : (0 <= φ (dot_mod Q xs' ys') < q)%Z.
      rewrite (IH _ _ Hts). apply: Z.mod_pos_bound. lia.
    have Hxy : φ (PrimInt63.mul x y) = (φ x * φ y)%Z := phi_mul_small q Hq x y Hx Hy.
    have := phi_bounded x. have := phi_bounded y. move=> Bx By.
    have Hm : (0 <= φ x * φ y <= q * q)%Z by split; [nia | apply: Z.mul_le_mono_nonneg; lia].
    rewrite Uint63.add_spec Hxy wB_eq (@Z.mod_small _ 9223372036854775808); last nia.
    rewrite (IH _ _ Hts) Hzx Hty Zplus_mod_idemp_r -Zplus_mod_idemp_l -Z.mul_mod; last lia.
    by rewrite Zplus_mod_idemp_l.
Qed.

End Modulus.

Lemma moduli_ok_In qs q : moduli_ok qs = true -> In q qs -> p_ok q = true.
Proof.
  elim: qs => [| q' qs IH] //= /andP [/andP [Hp _] Hqs] [<- | Hq] //. exact: IH.
Qed.

(** The exactness step: an integer row [rowZ] (the image of [rowQ]) bounded entrywise by
    [bs], whose residues mod every modulus are orthogonal to [t] mod that modulus, with
    [sum_i bs[i] |t[i]|] below the product of pairwise coprime moduli: [rowQ . t = 0]. *)
Lemma orth_of_moduli (qs : list Z) (rowQ : list rat) (rowZ bs : list Z)
    (rowM : Z -> list int) (t : list Z) :
  moduli_ok qs = true -> Forall2 RZ rowQ rowZ -> Forall2 RB rowZ bs ->
  (forall q, In q qs -> Forall2 (RM q) rowZ (rowM q) /\
                        dot_mod (Uint63.of_Z q) (rowM q) (ints_mod q t) = 0%uint63) ->
  (weighted_abs bs t < prod_z qs)%Z ->
  dot (arith_ring _ : arith rat) rowQ (List.map zr t) = 0.
Proof.
  move=> Hok HZ HB HM Hbd.
  have E : dot arith_z rowZ t = 0%Z.
    apply: (moduli_exact qs) => //.
    - move=> q Hin. have Hq := moduli_ok_In _ _ Hok Hin. have [H1 H2] := HM q Hin.
      rewrite -(dot_mod_RM q Hq _ _ _ _ H1 (RM_ints q Hq t)) H2. exact: Uint63.to_Z_0.
    - have := dot_weighted_abs _ _ t HB. lia.
  have Ht : Forall2 RZ (List.map zr t) t by elim: t {HM Hbd E} => //= z t IH; constructor.
  have := dot_rel (arith_ring _ : arith rat) arith_z RZ RZ0 RZadd RZmul _ _ _ _ HZ Ht.
  by rewrite /RZ E zr0.
Qed.

(** * Inputs *)

Lemma Forall2_map_map {A B C : Type} (R : B -> C -> Prop) (f : A -> B) (g : A -> C) l :
  (forall a, In a l -> R (f a) (g a)) -> Forall2 R (List.map f l) (List.map g l).
Proof.
  elim: l => [| a l IH] H //=. constructor; first by apply: H; left.
  apply: IH => a' Ha'. apply: H. by right.
Qed.

(** Every point of the lattice [{x in N^d : |x| <= D}] has [d] entries, all in [[0, D]]. *)
Lemma lattice_pts d : forall D x, In x (lattice d D) ->
  length x = d /\ forall z, In z x -> (0 <= z <= Z.of_nat D)%Z.
Proof.
  elim: d => [| d IH] D x.
  - by case=> [<- | []].
  - move=> H. apply in_flat_map in H as [v [Hv H]]. apply in_seq in Hv.
    rewrite /prepend_each in H. apply in_map_iff in H as [pt [<- Hpt]].
    have [Hl Hz] := IH _ _ Hpt. split; first by rewrite /= Hl.
    move=> z /= [<- | Hin]; first lia. have := Hz z Hin. lia.
Qed.

(** Integral rationals [(n, 1)] are the images of their numerators. *)
Lemma rats_int_RZ th : rats_int th = true -> Forall2 RZ (List.map q_of th) (nums th).
Proof.
  move=> /forallb_forall H. apply: Forall2_map_map => v Hv.
  have /Z.eqb_eq E := H v Hv. by rewrite /RZ /q_of E zr1 divr1.
Qed.

Lemma acts_int_RZ acts : acts_int acts = true ->
  Forall2 (Forall2 RZ) (List.map (List.map q_of) acts) (List.map nums acts).
Proof.
  move=> /forallb_forall H. apply: Forall2_map_map => a Ha. exact: rats_int_RZ (H a Ha).
Qed.

Lemma nums_RB th : Forall2 RB (nums th) (abs_nums th).
Proof. apply: Forall2_map_map => v _. exact: Z.le_refl. Qed.

Lemma acts_RB acts : Forall2 (Forall2 RB) (List.map nums acts) (List.map abs_nums acts).
Proof. apply: Forall2_map_map => a _. exact: nums_RB. Qed.

Lemma point_RB (x : list Z) (D : Z) : (forall z, In z x -> (0 <= z <= D)%Z) ->
  Forall2 RB x (const_list (length x) D).
Proof.
  elim: x => [| z x IH] H //=. constructor; last by apply: IH => z' Hz'; apply: H; right.
  have := H z (in_eq z x). rewrite /RB. lia.
Qed.

Lemma ints_RZ (x : list Z) : Forall2 RZ (List.map zr x) x.
Proof. by elim: x => [| z x IH] //=; constructor. Qed.

Lemma ints_RQ (x : list Z) : Forall2 RQ (List.map zr x) (ints_q x).
Proof. elim: x => [| z x IH] //=. constructor; [exact: RQ_int | exact: IH]. Qed.

Lemma acts_RQ acts : acts_pos acts = true ->
  Forall2 (Forall2 RQ) (List.map (List.map q_of) acts) acts.
Proof.
  elim: acts => [| a acts IH] //= /andP [Ha Has]. constructor; [exact: rats_rel | exact: IH].
Qed.

Lemma acts_RM q (Hq : p_ok q = true) acts :
  Forall2 (Forall2 (RM q)) (List.map nums acts) (List.map (fun a => ints_mod q (nums a)) acts).
Proof. apply: Forall2_map_map => a _. exact: RM_ints. Qed.

(** * Orthogonality, once for every family

    A family gives its Jacobian rows as [row A ar acts th x k] (output [k] at [x], reverse mode
    in any arithmetic [ar]) and the list [rows A ar th acts x] of the [dout] output rows the
    kernel walks; the two are generic in the arithmetic ([row_rel]: related inputs give
    related rows, for any relation respecting [0], [1], [+], [*]). Both kernel checks of
    orthogonality (exact over rational pairs, or mod several moduli with a bound) then mean
    that every tangent is orthogonal to every row over [rat]: [orth_exact] and
    [orth_moduli], instantiated by each family below. *)
(** A family's rows are generic in the arithmetic: for any relation [R] between two
    arithmetics relating [0] to [0], [1] to [1] and respecting [+] and [*], related activations,
    parameters and inputs give related rows (ReverseModeRel.v proves it for each family's reverse
    mode). *)
Definition row_parametric
    (row : forall A : Type, arith A -> list (list A) -> list A -> list A -> nat -> list A) :=
  forall (A B : Type) (arA : arith A) (arB : arith B) (R : A -> B -> Prop),
  R (zero arA) (zero arB) -> R (one arA) (one arB) ->
  (forall a a' b b', R a b -> R a' b' -> R (add arA a a') (add arB b b')) ->
  (forall a a' b b', R a b -> R a' b' -> R (mul arA a a') (mul arB b b')) ->
  forall acts acts' th th' x x' k,
  Forall2 (Forall2 R) acts acts' -> Forall2 R th th' -> Forall2 R x x' ->
  Forall2 R (row A arA acts th x k) (row B arB acts' th' x' k).

Section Orthogonality.
Variable row : forall A : Type, arith A -> list (list A) -> list A -> list A -> nat -> list A.
Variable rows : forall A : Type, arith A -> list A -> list (list A) -> list A -> list (list A).
Variable dout : nat.
Hypothesis rows_In : forall (A : Type) (ar : arith A) th acs x k, (k < dout)%N ->
  In (row A ar acs th x k) (rows A ar th acs x).
Hypothesis row_rel : row_parametric row.

(** The row over [rat] at the instance's rational activations [acts] and parameters [th]. *)
Definition row_rat (acts : list (list (Z * Z))) (th : list (Z * Z)) (x : list Z) (k : nat)
  : list rat :=
  row rat (arith_ring _) (List.map (List.map q_of) acts) (List.map q_of th) (List.map zr x) k.

(** Exact check: every tangent is orthogonal to every row over exact rational pairs. *)
Lemma orth_exact acts th pts ts x k t :
  rats_pos th = true -> acts_pos acts = true ->
  forallb (fun x =>
    forallb (fun r => forallb (fun t => Z.eqb (fst (dot arith_q r (ints_q t))) 0) ts)
      (rows _ arith_q th acts (ints_q x))) pts = true ->
  In x pts -> (k < dout)%N -> In t ts ->
  dot (arith_ring _ : arith rat) (row_rat acts th x k) (List.map zr t) = 0.
Proof.
  move=> Hth Hac /forallb_forall /(_ x) H Hx Hk Ht.
  move: (H Hx) => /forallb_forall /(_ _ (rows_In _ arith_q _ _ _ _ Hk)).
  move=> /forallb_forall /(_ t Ht) /Z.eqb_eq E.
  apply: orth_of_exact E. apply: row_rel; [exact: RQ0 | exact: RQ1 | exact: RQadd |
    exact: RQmul | exact: acts_RQ | exact: rats_rel | exact: ints_RQ].
Qed.

(** Moduli check: integral instance, the rows mod every modulus orthogonal to the tangents
    mod that modulus, and a bound on the rows (at [|theta|], [|coefficients|], [(D, ..., D)])
    below the product of the moduli: every tangent is orthogonal to every row over [rat] at
    every point of the lattice [{x in N^nin : |x| <= D}]. *)
Lemma orth_moduli acts th nin D qs ts x k t :
  let pts := lattice nin D in
  rats_int th = true -> acts_int acts = true -> moduli_ok qs = true ->
  (kill_bound (rows _ arith_z (abs_nums th) (List.map abs_nums acts)
                 (const_list nin (Z.of_nat D))) ts < prod_z qs)%Z ->
  forallb (fun q =>
    forallb (fun x => kills_mod q (rows _ (arith_mod (Uint63.of_Z q)) (ints_mod q (nums th))
                                     (List.map (fun a => ints_mod q (nums a)) acts)
                                     (ints_mod q x))
                        (List.map (ints_mod q) ts)) pts) qs = true ->
  In x pts -> (k < dout)%N -> In t ts ->
  dot (arith_ring _ : arith rat) (row_rat acts th x k) (List.map zr t) = 0.
Proof.
  move=> pts Hth Hac Hok Hbd /forallb_forall Hkill Hx Hk Ht.
  have [Hlx Hbx] := lattice_pts _ _ _ Hx.
  apply: (orth_of_moduli qs _ (row Z arith_z (List.map nums acts) (nums th) x k)
    (row Z arith_z (List.map abs_nums acts) (abs_nums th) (const_list nin (Z.of_nat D)) k)
    (fun q => row int (arith_mod (Uint63.of_Z q)) (List.map (fun a => ints_mod q (nums a)) acts)
       (ints_mod q (nums th)) (ints_mod q x) k)) => //.
  - apply: row_rel; [exact: RZ0 | exact: RZ1 | exact: RZadd | exact: RZmul |
      exact: acts_int_RZ | exact: rats_int_RZ | exact: ints_RZ].
  - apply: row_rel; [exact: RB0 | exact: RB1 | exact: RBadd | exact: RBmul |
      exact: acts_RB | exact: nums_RB | rewrite -Hlx; exact: point_RB].
  - move=> q Hin. have Hq := moduli_ok_In _ _ Hok Hin. split.
    + apply: row_rel; [exact: RM0 | exact: RM1 | exact: RMadd | exact: RMmul |
        exact: acts_RM | exact: RM_ints | exact: RM_ints].
    + move: (Hkill q Hin) => /forallb_forall /(_ x Hx) /forallb_forall.
      move=> /(_ _ (rows_In _ _ _ _ _ _ Hk)) /forallb_forall.
      move=> /(_ _ (in_map (ints_mod q) _ _ Ht)). by move/Uint63.eqb_spec.
  - apply: Z.le_lt_trans Hbd. apply: kill_bound_ge Ht. exact: rows_In.
Qed.

End Orthogonality.

(** * Polynomial MLPs *)

(** The Jacobian row [d f_theta(x)[k] / d theta] over [rat] by the kernel's reverse mode. *)
Definition mlp_rowQ (inst : rank_instance) (x : list Z) (k : nat) : list rat :=
  net_row (arith_ring _ : arith rat) (widths inst) (List.map (List.map q_of) (acts inst))
    (bias inst) (List.map q_of (theta inst)) (List.map zr x) k.

(** RankMeaning.v's [mlp_jac_entry] (the derivative of the network over [{poly rat}]) is
    entry [j] of [mlp_rowQ] ([mlp_backprop] at [R = rat]). *)
Lemma mlp_jac_row inst x k j :
  length (theta inst) = n_params (widths inst) (bias inst) ->
  length x = first_width (widths inst) ->
  mlp_jac_entry inst x k j = List.nth j (mlp_rowQ inst x k) 0.
Proof.
  move=> Hth Hx. rewrite /mlp_rowQ mlp_backprop ?map_length //.
  rewrite /mlp_jac_entry deriv_at0 theta_line_line.
  by rewrite acts_polyC ints_polyC.
Qed.

Lemma mlp_rowQ_length inst x k :
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) [::] = true ->
  length x = first_width (widths inst) -> length (mlp_rowQ inst x k) = length (theta inst).
Proof.
  move=> /shape_ok_lengths [Hth [_ [H2 _]]] Hx. rewrite /mlp_rowQ /net_row.
  move: Hth Hx H2. case: (widths inst) => [| d0 [| d rest]] //= Hth Hx H2; try lia.
  have Hx' : length (List.map zr x : list rat) = d0 by rewrite map_length.
  have Hth' : length (List.map q_of (theta inst)) = n_params_from d0 (d :: rest)
    (if bias inst then 1%N else 0%N) by rewrite map_length.
  have [-> _] := net_back_length (arith_ring _ : arith rat) (bias inst) k rest d d0
    (List.map (List.map q_of) (acts inst)) _ _ Hx' Hth'.
  by rewrite map_length.
Qed.

(** A walk [walk k0 c = [f k0; f (k0 + 1); ...; f (k0 + c - 1)]] (the kernel's [rows_from],
    [resnet_rows_from]) holds [f k] for [k0 <= k < k0 + c]. *)
Lemma In_walk {B : Type} (f : nat -> B) (walk : nat -> nat -> list B) :
  (forall k0 c, walk k0 c.+1 = f k0 :: walk k0.+1 c) ->
  forall c k0 k, (k0 <= k < k0 + c)%N -> In (f k) (walk k0 c).
Proof.
  move=> Hs. elim=> [| c IH] k0 k /andP [H1 H2].
  - by rewrite addn0 in H2; move: (leq_ltn_trans H1 H2); rewrite ltnn.
  - rewrite Hs. case: (k =P k0) => [-> | Hne]; [by left | right].
    apply: IH. apply/andP; split; [| by rewrite addSnnS].
    by rewrite ltn_neqAle H1 andbT; apply/eqP => E; apply: Hne.
Qed.

Lemma out_rows_In {A : Type} (ar : arith A) inst th acs x k :
  (k < last_width (widths inst))%N ->
  In (net_row ar (widths inst) acs (bias inst) th x k) (out_rows ar inst th acs x).
Proof. move=> Hk. by apply: (In_walk _ (rows_from ar inst th acs x)). Qed.

(** The MLP's rows: [net_row] at the instance's widths and bias, the [last_width] outputs
    [out_rows] walks ([out_rows_In]); [net_row_rel] (ReverseModeRel.v) is its parametricity. *)
Definition mlp_row (inst : rank_instance) (A : Type) (ar : arith A) acts th x k : list A :=
  net_row ar (widths inst) acts (bias inst) th x k.

Lemma mlp_row_rel (inst : rank_instance) : row_parametric (mlp_row inst).
Proof. move=> A B arA arB R R0 R1 Ra Rm *. exact: net_row_rel. Qed.

Definition mlp_rows (inst : rank_instance) (A : Type) (ar : arith A) th acs x :=
  out_rows ar inst th acs x.

Lemma mlp_rows_In inst A (ar : arith A) th acs x k : (k < last_width (widths inst))%N ->
  In (mlp_row inst A ar acs th x k) (mlp_rows inst A ar th acs x).
Proof. exact: out_rows_In. Qed.

(** * Assembly *)

Lemma row_point m dout i : (i < m * dout)%N ->
  (i %/ dout < m)%N /\ (i %% dout < dout)%N.
Proof.
  move=> Hi. have Hd : (0 < dout)%N by case: dout Hi => [| d]; rewrite ?muln0.
  by rewrite ltn_divLR // ltn_pmod.
Qed.

(** The shared step of the families: the Jacobian over the points [pts] (row
    [s * dout + k]: output [k] at [pts[s]]), its entries the rows [rowQ x k] of [n]
    rationals, every row orthogonal to the [s] independent tangents, [u + s = n]:
    [\rank <= u]. *)
Lemma upper_generic (pts : list (list Z)) dout n u (entry : list Z -> nat -> nat -> rat)
    (rowQ : list Z -> nat -> list rat) (ts : list (list Z)) :
  (forall x k j, In x pts -> (k < dout)%N -> entry x k j = List.nth j (rowQ x k) 0) ->
  (forall x k, In x pts -> (k < dout)%N -> length (rowQ x k) = n) ->
  (forall x k t, In x pts -> (k < dout)%N -> In t ts ->
     dot (arith_ring _ : arith rat) (rowQ x k) (List.map zr t) = 0) ->
  \rank (tangent_matrix ts n) = length ts -> Nat.add u (length ts) = n ->
  (\rank (\matrix_(i < length pts * dout, j < n)
            entry (nth_row pts (i %/ dout)) (i %% dout) j) <= u)%N.
Proof.
  move=> HE HL HO Hr Hu.
  apply: (@rank_upper_of_rows _ _ u (fun i j => entry (nth_row pts (i %/ dout)) (i %% dout) j)
            (fun i => rowQ (nth_row pts (i %/ dout)) (i %% dout)) ts) => //.
  - move=> i j Hi _. have [H1 H2] := row_point _ _ _ Hi. exact: HE (nth_row_In _ _ H1) H2.
  - move=> i Hi. have [H1 H2] := row_point _ _ _ Hi. exact: HL (nth_row_In _ _ H1) H2.
  - move=> i t Hi Ht. have [H1 H2] := row_point _ _ _ Hi. exact: HO (nth_row_In _ _ H1) H2 Ht.
Qed.

(** [check_rank_upper] with independent tangents: the rank at [theta] of the MLP's Jacobian
    on the lattice is [<= u]. *)
Lemma mlp_rank_upper_of_rank inst w u :
  check_rank_upper inst w u = true ->
  \rank (tangent_matrix (uw_tangents w) (length (theta inst))) = length (uw_tangents w) ->
  (\rank (mlp_jacobian inst (lattice (first_width (widths inst)) (degree_bound (acts inst))))
     <= u)%N.
Proof.
  rewrite /check_rank_upper.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [Hs Hth] Hac] /Nat.eqb_eq Hu] Hlen]
    Hkill] Hind] Hr.
  have [Hn _] := shape_ok_lengths _ _ _ _ _ Hs.
  rewrite /mlp_jacobian. apply: upper_generic Hr Hu.
  - move=> x k j Hx _. apply: mlp_jac_row => //. by have [-> _] := lattice_pts _ _ _ Hx.
  - move=> x k Hx _. apply: mlp_rowQ_length => //. by have [-> _] := lattice_pts _ _ _ Hx.
  - move=> x k t Hx Hk Ht. move: Hkill. rewrite /mlp_tangents_kill.
    case: (uw_moduli w) => [| q0 qs'] Hkill.
    + exact: (orth_exact _ _ _ (mlp_rows_In inst) (mlp_row_rel inst) _ _ _ _ _ _ _ Hth Hac
        Hkill Hx Hk Ht).
    + move: Hkill => /andP [/andP [/andP [/andP [Hti Haci] Hok] /Z.ltb_lt Hbd] Hm].
      exact: (orth_moduli _ _ _ (mlp_rows_In inst) (mlp_row_rel inst) _ _ _ _ _ _ _ _ _
        Hti Haci Hok Hbd Hm Hx Hk Ht).
Qed.

(** * ResNets *)

(** The Jacobian row [d F_theta(x)[k] / d theta] over [rat] by the kernel's reverse mode. *)
Definition resnet_rowQ (inst : resnet_instance) (x : list Z) (k : nat) : list rat :=
  resnet_row (arith_ring _ : arith rat) (rn_width inst) (rn_outer inst)
    (List.map (List.map q_of) (rn_acts inst)) (List.map q_of (rn_theta inst)) (List.map zr x) k.

Lemma resnet_rowQ_length inst x k :
  resnet_shape_ok inst [::] = true -> length x = rn_width inst ->
  length (resnet_rowQ inst x k) = length (rn_theta inst).
Proof.
  rewrite /resnet_shape_ok => /andP [/andP [_ /Nat.eqb_eq Hth] _] Hx.
  have Hth' : length (List.map q_of (rn_theta inst)) =
    (length (List.map (List.map q_of) (rn_acts inst)) *
     layer_size (rn_width inst) (rn_outer inst))%N
    by rewrite !map_length Hth.
  have Hx' : length (List.map zr x : list rat) = rn_width inst by rewrite map_length.
  have [-> _] := rn_back_len (rn_width inst) (rn_outer inst) _ k _ _ Hth' Hx'.
  by rewrite map_length.
Qed.

Lemma resnet_out_In {A : Type} (ar : arith A) inst th acs x k : (k < rn_width inst)%N ->
  In (resnet_row ar (rn_width inst) (rn_outer inst) acs th x k)
     (resnet_rows_from ar inst th acs x 0 (rn_width inst)).
Proof. move=> Hk. by apply: (In_walk _ (resnet_rows_from ar inst th acs x)). Qed.

(** The ResNet's rows: [resnet_row] at the instance's width and [outer], the [rn_width]
    outputs [resnet_rows_from] walks; [resnet_row_rel] (ReverseModeRel.v) is its parametricity. *)
Definition resnet_row_of (inst : resnet_instance) (A : Type) (ar : arith A) acts th x k :=
  resnet_row ar (rn_width inst) (rn_outer inst) acts th x k.

Lemma resnet_row_of_rel (inst : resnet_instance) : row_parametric (resnet_row_of inst).
Proof. move=> A B arA arB R R0 R1 Ra Rm *. exact: resnet_row_rel. Qed.

Definition resnet_rows (inst : resnet_instance) (A : Type) (ar : arith A) th acs x :=
  resnet_rows_from ar inst th acs x 0 (rn_width inst).

Lemma resnet_rows_In inst A (ar : arith A) th acs x k : (k < rn_width inst)%N ->
  In (resnet_row_of inst A ar acs th x k) (resnet_rows inst A ar th acs x).
Proof. exact: resnet_out_In. Qed.

(** [check_rank_upper_resnet] with independent tangents: the rank at [theta] of the
    ResNet's Jacobian on the lattice is [<= u]. *)
Lemma resnet_rank_upper_of_rank inst w u :
  check_rank_upper_resnet inst w u = true ->
  \rank (tangent_matrix (uw_tangents w) (length (rn_theta inst))) = length (uw_tangents w) ->
  (\rank (resnet_jacobian inst (lattice (rn_width inst) (degree_bound (rn_acts inst)))) <= u)%N.
Proof.
  rewrite /check_rank_upper_resnet.
  move=> /andP [/andP [/andP [/andP [/andP [/andP [Hs Hth] Hac] /Nat.eqb_eq Hu] Hlen]
    Hkill] Hind] Hr.
  have Hn : length (rn_theta inst) = resnet_params (rn_width inst) (rn_acts inst) (rn_outer inst).
    by move: Hs; rewrite /resnet_shape_ok => /andP [/andP [_ /Nat.eqb_eq ->] _].
  rewrite /resnet_jacobian. apply: upper_generic Hr Hu.
  - move=> x k j Hx _. apply: resnet_jac_entry_row => //. by have [-> _] := lattice_pts _ _ _ Hx.
  - move=> x k Hx _. apply: resnet_rowQ_length => //. by have [-> _] := lattice_pts _ _ _ Hx.
  - move=> x k t Hx Hk Ht. move: Hkill. rewrite /resnet_tangents_kill.
    case: (uw_moduli w) => [| q0 qs'] Hkill.
    + exact: (orth_exact _ _ _ (resnet_rows_In inst) (resnet_row_of_rel inst) _ _ _ _ _ _ _
        Hth Hac Hkill Hx Hk Ht).
    + move: Hkill => /andP [/andP [/andP [/andP [Hti Haci] Hok] /Z.ltb_lt Hbd] Hm].
      exact: (orth_moduli _ _ _ (resnet_rows_In inst) (resnet_row_of_rel inst) _ _ _ _ _ _ _ _ _
        Hti Haci Hok Hbd Hm Hx Hk Ht).
Qed.

(** * The theorems *)

(** Independence ([independent_mod], RankCore.v): for a prime [p], the kernel's elimination
    on the tangents' residues succeeds only if the tangents are independent over Q. *)
Lemma independent_rank p n (ts : list (list Z)) cols :
  prime_ok p = true -> independent_mod p n ts cols = true ->
  \rank (tangent_matrix ts n) = length ts.
Proof.
  move=> Hpr /andP [Hp Hc]. have U := check_minor_unit p Hp n _ _ _ Hpr Hc.
  move: Hc => /andP [/andP [/andP [_ /Nat.eqb_eq Hlc] Hcols] _].
  exact: (independent_rank_of_minor p n ts cols Hp Hlc Hcols U).
Qed.

(** Soundness of the MLP upper bound: if [check_rank_upper inst w u] succeeds and [p] is
    prime, the Jacobian of [theta -> (f_theta(x))_(x in L)] at the instance's [theta]
    ([mlp_jacobian], RankMeaning.v: derivatives of the network over [{poly rat}]), [L] the
    principal lattice [{x in N^d0 : |x| <= D}] of the degree [D] of [f] in [x], has rank
    [<= u] over Q. That [L] is unisolvent for polynomials of total degree [<= D], so this is
    the rank at [theta] of the differential of [theta -> f_theta] into functions on all of
    [Q^d0], is cited, not proved here. *)
Theorem mlp_rank_upper_sound inst w u :
  check_rank_upper inst w u = true -> prime_ok (uw_p w) = true ->
  (\rank (mlp_jacobian inst (lattice (first_width (widths inst)) (degree_bound (acts inst))))
     <= u)%N.
Proof.
  move=> H Hpr. apply: (mlp_rank_upper_of_rank _ _ _ H).
  move: H; rewrite /check_rank_upper => /andP [_ Hind]. exact: independent_rank Hpr Hind.
Qed.

(** Soundness of the ResNet upper bound (as [mlp_rank_upper_sound]; [L] the lattice
    [{x in N^n : |x| <= D}], [D = prod_l deg sigma_l]; unisolvence cited). *)
Theorem resnet_rank_upper_sound inst w u :
  check_rank_upper_resnet inst w u = true -> prime_ok (uw_p w) = true ->
  (\rank (resnet_jacobian inst (lattice (rn_width inst) (degree_bound (rn_acts inst)))) <= u)%N.
Proof.
  move=> H Hpr. apply: (resnet_rank_upper_of_rank _ _ _ H).
  move: H; rewrite /check_rank_upper_resnet => /andP [_ Hind]. exact: independent_rank Hpr Hind.
Qed.
