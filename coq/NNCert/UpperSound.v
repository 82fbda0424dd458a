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
      pairwise coprime moduli whose product exceeds its bound is [0] (Sound.v
      [moduli_exact]); the rows over [rat] are the Jacobian rows (Backprop.v [mlp_backprop],
      BackpropResNet.v [resnet_backprop]).
    Axioms: only the specification axioms of Coq's primitive integers (Uint63). *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet Sound Jacobian RankMeaning.
From NNCert Require Import BackRel Backprop.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg matrix mxalgebra zmodp rat.
Import GRing.Theory.
Local Open Scope ring_scope.

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

(** The dot product of the kernel (over [rat]) with an integer vector is the sum
    [sum_(j < n) row[j] t[j]] when the row has [n] entries. *)
Lemma dot_ring_sum (row : list rat) (t : list Z) n : length row = n ->
  dot (arith_ring _ : arith rat) row (List.map zr t) =
  \sum_(j < n) List.nth j row 0 * zr (List.nth j t 0%Z).
Proof.
  elim: row t n => [| x row IH] t [| n] //=; first by rewrite big_ord0.
  case=> Hl. case: t => [| z t] /=.
  - rewrite big1 // => j _. by case: (nat_of_ord j) => [| ?] /=; rewrite zr0 mulr0.
  - by rewrite big_ord_recl /= (IH t n Hl).
Qed.

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
  (forall i t, (i < m)%N -> In t ts -> dot (arith_ring _ : arith rat) (rowf i) (List.map zr t) = 0) ->
  \rank (tangent_matrix ts n) = length ts -> Nat.add u (length ts) = n ->
  (\rank (\matrix_(i < m, j < n) Jf i j) <= u)%N.
Proof.
  move=> HJ Hlen Horth Hrank Hu.
  have K := rank_le_of_kernel _ _ _ _ _ _ (jac_mul_tangents0 m n Jf ts _) Hrank.
  rewrite -(leq_add2r (length ts)). apply: leq_trans (K _) _; last by rewrite -Hu.
  move=> i l Hi Hl. have := Horth i (nth_row ts l) Hi (nth_row_In _ _ Hl).
  rewrite (dot_ring_sum _ _ n (Hlen i Hi)) => E. apply: etrans E. apply: eq_bigr => j _.
  by rewrite HJ.
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
