(** Composition independence: are [sigma(p_1), ..., sigma(p_k)] (preceded by the constant
    function 1 when the network has biases) linearly independent over Q, or dependent?
    Python twin: certify/checker/kernel/compind.py, transcribed definition by definition in
    the same order (exceptions: [nsub], [_dot_q] and [qmul3] come before their first use, as
    Coq requires; Coq-only helpers are marked as such). Lean twin: lean/NNCert/Compind.lean.
    Multivariate polynomials are lists of terms [((num, den), exponents)], the exponents a
    list of [nat] of length [nvars]; an activation [sigma] is a coefficient list (constant
    term first). Conventions of Arith.v: fractions are unnormalised pairs with [den > 0];
    residues are primitive integers in [[0, p)] with [1 < p < 2^31], so a product of two
    residues is below 2^62 and never wraps around 2^63. *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net Rank.
Import ListNotations.
Open Scope Z_scope.

(** [nsub a b] is the natural-number subtraction [a - b] truncated at 0 ([Nat.sub]).
    (Defined before its first use; in the Python twin it comes after [qint].) *)
Definition nsub (a b : nat) : nat := (a - b)%nat.

Section Generic.
Context {A : Type} (ar : arith A).

(** [x^e], computed as [e] multiplications [x * (x * (... * 1))] ([e] is a degree). *)
Fixpoint pow_ar (x : A) (e : nat) : A :=
  match e with
  | O => one ar
  | S e' => mul ar x (pow_ar x e')
  end.

(** The monomial [prod_k xs[k]^es[k]], over the shorter of [es] and [xs]. *)
Fixpoint mono_eval (es : list nat) (xs : list A) : A :=
  match es, xs with
  | e :: es', x :: xs' => mul ar (pow_ar x e) (mono_eval es' xs')
  | _, _ => one ar
  end.

(** The polynomial [sum_t cs[t] * xs^ess[t]], over the shorter of [cs] and [ess]. *)
Fixpoint poly_eval (cs : list A) (ess : list (list nat)) (xs : list A) : A :=
  match cs, ess with
  | c :: cs', es :: ess' => add ar (mul ar c (mono_eval es xs)) (poly_eval cs' ess' xs)
  | _, _ => zero ar
  end.

(** [sigma(a)] for [sigma = sum_k cs[k] t^k], by Horner's rule. *)
Fixpoint horner (cs : list A) (a : A) : A :=
  match cs with
  | [] => zero ar
  | c :: cs' => add ar c (mul ar a (horner cs' a))
  end.

End Generic.

(** The coefficients [(num, den)] of the terms of a polynomial, in order. *)
Definition term_coeffs (p : list ((Z * Z) * list nat)) : list (Z * Z) := map fst p.

(** The exponent vectors of the terms of a polynomial, in order. *)
Definition term_exps (p : list ((Z * Z) * list nat)) : list (list nat) := map snd p.

(** Every exponent vector has [nvars] entries and every denominator is positive. (The
    Python twin also checks that the exponents are naturals; the type [nat] forces that.) *)
Definition exps_ok (nvars : nat) (p : list ((Z * Z) * list nat)) : bool :=
  rows_len nvars (term_exps p) && rats_pos (term_coeffs p).

(** [exps_ok] for every polynomial. *)
Definition polys_ok (nvars : nat) (ps : list (list ((Z * Z) * list nat))) : bool :=
  forallb (exps_ok nvars) ps.

(** One list of denominator inverses mod p per polynomial ([rats_inv_ok] for each), and
    equal lengths. *)
Fixpoint polys_inv_ok (p : Z) (ps : list (list ((Z * Z) * list nat))) (invs : list (list Z))
  : bool :=
  match ps, invs with
  | [], [] => true
  | q :: ps', i :: invs' => rats_inv_ok p (term_coeffs q) i && polys_inv_ok p ps' invs'
  | _, _ => false
  end.

(** [[sigma(q(v_j)) mod p for every point v_j]], [q] with coefficients [cs_m] mod p and
    exponents [ess], [sigma] with coefficients [sigma_m] mod p. The residues are returned as
    [Z] in [[0, p)] (as [jac_entry_mod] does), the type [check_inverse] takes. *)
Definition family_row_mod (p : Z) (sigma_m cs_m : list int) (ess : list (list nat))
    (points : list (list Z)) : list Z :=
  let ar := arith_mod (Uint63.of_Z p) in
  map (fun v => Uint63.to_Z (horner ar sigma_m (poly_eval ar cs_m ess (ints_mod p v))))
    points.

(** The row of the constant function 1: [n] ones. *)
Definition ones_row (n : nat) : list Z := repeat 1 n.

(** Coq-only helper of [family_matrix_mod]: one [family_row_mod] per pair (polynomial,
    its denominator inverses), to the shorter of [ps] and [invs] (the Python [zip]). *)
Fixpoint family_rows_mod (p : Z) (sigma_m : list int) (ps : list (list ((Z * Z) * list nat)))
    (invs : list (list Z)) (points : list (list Z)) : list (list Z) :=
  match ps, invs with
  | q :: ps', i :: invs' =>
      family_row_mod p sigma_m (rats_mod p (term_coeffs q) i) (term_exps q) points
        :: family_rows_mod p sigma_m ps' invs' points
  | _, _ => []
  end.

(** [M[i][j] = sigma(p_i(v_j)) mod p]; with biases the row of the constant function 1
    comes first. *)
Definition family_matrix_mod (p : Z) (bias : bool) (sigma_m : list int)
    (ps : list (list ((Z * Z) * list nat))) (invs : list (list Z)) (points : list (list Z))
    : list (list Z) :=
  let rows := family_rows_mod p sigma_m ps invs points in
  if bias then ones_row (length points) :: rows else rows.

(** The family [sigma(p_1), ..., sigma(p_k)] (after the constant 1 when [ci_bias]) of
    functions of [Q[x_1 .. x_nvars]]. *)
Record compind_instance := {
  ci_nvars : nat;
  ci_polys : list (list ((Z * Z) * list nat));
  ci_sigma : list (Z * Z);
  ci_bias : bool }.

(** Independence witness: prime, denominator inverses mod p of the polynomials and of
    [sigma], [k] integer points, and the inverse mod p of the evaluation matrix (as
    primitive-integer literals, like [lw_inv] in Rank.v). *)
Record indep_witness := {
  iw_p : Z;
  iw_polys_inv : list (list Z);
  iw_sigma_inv : list Z;
  iw_points : list (list Z);
  iw_inv : list (list int) }.

(** The number of functions in the family: the polynomials, plus 1 with biases. *)
Definition family_size (inst : compind_instance) : nat :=
  (length (ci_polys inst) + (if ci_bias inst then 1 else 0))%nat.

(** The [k] functions are linearly independent over Q: [M * inv = I (mod p)] for the
    matrix [M[i][j] = f_i(v_j)] recomputed from the instance (a relation [c^T M = 0] over Q
    with [c <> 0] would survive reduction mod p after clearing denominators). *)
Definition check_independent (inst : compind_instance) (w : indep_witness) (k : nat) : bool :=
  let p := iw_p w in
  Nat.eqb k (family_size inst) &&
  polys_ok (ci_nvars inst) (ci_polys inst) &&
  p_ok p &&
  polys_inv_ok p (ci_polys inst) (iw_polys_inv w) &&
  rats_inv_ok p (ci_sigma inst) (iw_sigma_inv w) &&
  Nat.eqb (length (iw_points w)) k &&
  rows_len (ci_nvars inst) (iw_points w) &&
  check_inverse p k
    (family_matrix_mod p (ci_bias inst) (rats_mod p (ci_sigma inst) (iw_sigma_inv w))
       (ci_polys inst) (iw_polys_inv w) (iw_points w))
    (iw_inv w).

(** The integer [c] as the fraction [c/1] (defined before its first use; the Python twin
    defines it later). *)
Definition qint (c : Z) : Z * Z := (c, 1).

(** Exponent vectors add entrywise (to the shorter length). *)
Fixpoint exps_add (a b : list nat) : list nat :=
  match a, b with
  | x :: a', y :: b' => (x + y)%nat :: exps_add a' b'
  | _, _ => []
  end.

(** Equality of exponent vectors (false on a length mismatch). *)
Fixpoint exps_eq (a b : list nat) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.eqb x y && exps_eq a' b'
  | _, _ => false
  end.

(** The product of two terms. *)
Definition term_mul (s t : (Z * Z) * list nat) : (Z * Z) * list nat :=
  (qmul (fst s) (fst t), exps_add (snd s) (snd t)).

(** [t * q], term by term. *)
Definition terms_scale (t : (Z * Z) * list nat) (q : list ((Z * Z) * list nat))
  : list ((Z * Z) * list nat) :=
  map (term_mul t) q.

(** [p * q] as the list of all pairwise term products (not yet normalised). *)
Fixpoint poly_mul_t (p q : list ((Z * Z) * list nat)) : list ((Z * Z) * list nat) :=
  match p with
  | [] => []
  | t :: p' => terms_scale t q ++ poly_mul_t p' q
  end.

(** Add the term [t] into [acc]: to the first term with the same exponents, or at the end. *)
Fixpoint add_term (t : (Z * Z) * list nat) (acc : list ((Z * Z) * list nat))
  : list ((Z * Z) * list nat) :=
  match acc with
  | [] => [t]
  | u :: acc' =>
      if exps_eq (snd u) (snd t) then (qadd (fst u) (fst t), snd u) :: acc'
      else u :: add_term t acc'
  end.

(** Like terms combined (one term per exponent vector); folds from the right. *)
Fixpoint normalize (ts : list ((Z * Z) * list nat)) : list ((Z * Z) * list nat) :=
  match ts with
  | [] => []
  | t :: ts' => add_term t (normalize ts')
  end.

(** The zero exponent vector of length [n]. *)
Definition zero_exps (n : nat) : list nat := repeat 0%nat n.

(** The constant term [c]. *)
Definition const_term (c : Z * Z) (nvars : nat) : (Z * Z) * list nat := (c, zero_exps nvars).

(** The coefficients of [sigma(p)], by Horner with like terms combined at every step. *)
Fixpoint compose_t (nvars : nat) (sigma : list (Z * Z)) (p : list ((Z * Z) * list nat))
  : list ((Z * Z) * list nat) :=
  match sigma with
  | [] => []
  | c :: cs => normalize (const_term c nvars :: poly_mul_t p (compose_t nvars cs p))
  end.

(** [sum_i lams[i] * sigma(ps[i])] as a list of terms (to the shorter of [ps] and [lams]). *)
Fixpoint scaled_compositions (nvars : nat) (sigma : list (Z * Z))
    (ps : list (list ((Z * Z) * list nat))) (lams : list Z) : list ((Z * Z) * list nat) :=
  match ps, lams with
  | q :: ps', l :: lams' =>
      terms_scale (const_term (qint l) nvars) (compose_t nvars sigma q) ++
      scaled_compositions nvars sigma ps' lams'
  | _, _ => []
  end.

(** The coefficients of [sum_i lam_i f_i] ([f_0 = 1] first when biases), like terms
    combined. *)
Definition relation_poly (inst : compind_instance) (lam : list Z) : list ((Z * Z) * list nat) :=
  if ci_bias inst then
    match lam with
    | [] => []
    | l0 :: ls =>
        normalize (const_term (qint l0) (ci_nvars inst) ::
                   scaled_compositions (ci_nvars inst) (ci_sigma inst) (ci_polys inst) ls)
    end
  else normalize (scaled_compositions (ci_nvars inst) (ci_sigma inst) (ci_polys inst) lam).

(** Every coefficient is zero. *)
Fixpoint all_zero_terms (ts : list ((Z * Z) * list nat)) : bool :=
  match ts with
  | [] => true
  | t :: ts' => Z.eqb (fst (fst t)) 0 && all_zero_terms ts'
  end.

(** Some entry of [lam] is nonzero. *)
Definition nonzero_int (lam : list Z) : bool := existsb (fun v => negb (Z.eqb v 0)) lam.

(** [lam <> 0] and [sum_i lam_i f_i = 0] identically: every coefficient of the expanded
    relation is zero (exact rational arithmetic, like terms combined). *)
Definition check_dependent (inst : compind_instance) (lam : list Z) : bool :=
  Nat.eqb (length lam) (family_size inst) &&
  nonzero_int lam &&
  polys_ok (ci_nvars inst) (ci_polys inst) &&
  rats_pos (ci_sigma inst) &&
  all_zero_terms (relation_poly inst lam).

(** The coefficient list of [z^j]: [j] zeros, then 1. *)
Definition unit_sigma (j : nat) : list (Z * Z) := repeat (0, 1) j ++ [(1, 1)].

(** Coq-only helper of [check_dependent_all]: [check_dependent] with [sigma = z^j], no
    biases, for every [j] in [lo, lo + count) (the Python [range(lo, d + 1)] has
    [count = nsub (d + 1) lo]); structural in [count]. *)
Fixpoint dependent_range (inst : compind_instance) (lam : list Z) (j count : nat) : bool :=
  match count with
  | O => true
  | S c =>
      check_dependent {| ci_nvars := ci_nvars inst; ci_polys := ci_polys inst;
                         ci_sigma := unit_sigma j; ci_bias := false |} lam &&
      dependent_range inst lam (S j) c
  end.

(** [sum_i lam_i p_i^j = 0] identically for every [j] in [lo..d], so the relation holds for
    every [sigma = sum_{j=lo}^{d} a_j z^j] (generic dependence in degree [d]). Without
    biases; [lo = 1] for origin-passing activations. *)
Definition check_dependent_all (inst : compind_instance) (lam : list Z) (lo d : nat) : bool :=
  negb (ci_bias inst) &&
  Nat.leb lo d &&
  polys_ok (ci_nvars inst) (ci_polys inst) &&
  Nat.eqb (length lam) (length (ci_polys inst)) &&
  nonzero_int lam &&
  dependent_range inst lam lo (nsub (S d) lo).

(** [a * (b * c)]. (Defined before its first use; in the Python twin it comes after
    [delta3].) *)
Definition qmul3 (a b c : Z * Z) : Z * Z := qmul a (qmul b c).

(** [Delta_2 = 2 r a_r a_(r-2) - (r-1) a_(r-1)^2] (Prop. 2.1), [r = length sigma - 1]; the
    integer factors are computed in [Z] from the [nat] indices (the same integers). *)
Definition delta2 (sigma : list (Z * Z)) : Z * Z :=
  let r := nsub (length sigma) 1 in
  let a_r := nth_q sigma r in
  let a_r1 := nth_q sigma (nsub r 1) in
  let a_r2 := nth_q sigma (nsub r 2) in
  let t1 := qmul3 (qint (2 * Z.of_nat r)) a_r a_r2 in
  let t2 := qmul3 (qint (Z.of_nat (nsub r 1))) a_r1 a_r1 in
  qadd t1 (qneg t2).

(** [Delta_3 = 3 r^2 a_r^2 a_(r-3) - 3 r (r-2) a_r a_(r-1) a_(r-2) + (r-1)(r-2) a_(r-1)^3]. *)
Definition delta3 (sigma : list (Z * Z)) : Z * Z :=
  let r := nsub (length sigma) 1 in
  let a_r := nth_q sigma r in
  let a_r1 := nth_q sigma (nsub r 1) in
  let a_r2 := nth_q sigma (nsub r 2) in
  let a_r3 := nth_q sigma (nsub r 3) in
  let t1 := qmul3 (qint (3 * Z.of_nat r * Z.of_nat r)) (qmul a_r a_r) a_r3 in
  let t2 := qmul3 (qint (3 * Z.of_nat r * Z.of_nat (nsub r 2))) (qmul a_r a_r1) a_r2 in
  let t3 := qmul3 (qint (Z.of_nat (nsub r 1) * Z.of_nat (nsub r 2))) (qmul a_r1 a_r1) a_r1 in
  qadd (qadd t1 (qneg t2)) t3.

(** [deg sigma = r >= 3], [a_r * Delta_2 * Delta_3 <> 0], and [Delta_2 = d2],
    [Delta_3 = d3] as rationals. *)
Definition check_prop21 (sigma : list (Z * Z)) (d2 d3 : Z * Z) : bool :=
  let r := nsub (length sigma) 1 in
  rats_pos sigma &&
  rats_pos [d2; d3] &&
  Nat.leb 3 r &&
  nonzero_q (nth_q sigma r) &&
  qeq (delta2 sigma) d2 &&
  qeq (delta3 sigma) d3 &&
  nonzero_q d2 &&
  nonzero_q d3.

(** Origin-passing case: [deg sigma = r >= 2], [sigma(0) = 0] and [a_r * a_(r-1) <> 0]. *)
Definition check_prop33 (sigma : list (Z * Z)) : bool :=
  let r := nsub (length sigma) 1 in
  rats_pos sigma &&
  Nat.leb 2 r &&
  negb (nonzero_q (nth_q sigma 0)) &&
  nonzero_q (nth_q sigma r) &&
  nonzero_q (nth_q sigma (nsub r 1)).


(** * MLP identifiability hypotheses (math.md §1, §4). Python twin: the last section of
    certify/checker/kernel/compind.py. *)

(** [nrows] rows of [ncols] entries each, read from the front of [th]. *)
Fixpoint chunk_rows (ncols nrows : nat) (th : list Z) : list (list Z) :=
  match nrows with
  | O => []
  | S k => take_n ncols th :: chunk_rows ncols k (drop_n ncols th)
  end.

(** The weight matrices (lists of rows) of a bias-free MLP, layer by layer. *)
Fixpoint split_layers (prev : nat) (rest : list nat) (th : list Z) : list (list (list Z)) :=
  match rest with
  | [] => []
  | d :: rest' => chunk_rows prev d th :: split_layers d rest' (drop_n (d * prev) th)
  end.

(** Every entry is zero. *)
Fixpoint is_zero_row (row : list Z) : bool :=
  match row with
  | [] => true
  | x :: row' => Z.eqb x 0 && is_zero_row row'
  end.

(** Some row is zero. *)
Fixpoint any_zero_row (W : list (list Z)) : bool :=
  match W with
  | [] => false
  | r :: W' => is_zero_row r || any_zero_row W'
  end.

(** Column [j] of [W] ([0] past the end of a row). *)
Definition column (W : list (list Z)) (j : nat) : list Z := map (fun r => nth_z r j) W.

(** Some column [j < ncols] of [W] is zero. *)
Fixpoint any_zero_col_from (W : list (list Z)) (j count : nat) : bool :=
  match count with
  | O => false
  | S c => is_zero_row (column W j) || any_zero_col_from W (S j) c
  end.

(** Some column among the first [ncols] is zero. *)
Definition any_zero_col (W : list (list Z)) (ncols : nat) : bool := any_zero_col_from W O ncols.

(** [row] equals some row of [W]. *)
Fixpoint row_in (row : list Z) (W : list (list Z)) : bool :=
  match W with
  | [] => false
  | r :: W' => zlist_eq r row || row_in row W'
  end.

(** Two rows of [W] are equal. *)
Fixpoint any_dup_row (W : list (list Z)) : bool :=
  match W with
  | [] => false
  | r :: W' => row_in r W' || any_dup_row W'
  end.

(** Every hidden layer's neurons are active and not redundant. *)
Fixpoint hidden_ok (Ws : list (list (list Z))) : bool :=
  match Ws with
  | [] => true
  | W1 :: Ws' =>
      match Ws' with
      | [] => true
      | W2 :: _ =>
          negb (any_zero_row W1) && negb (any_dup_row W1) &&
          negb (any_zero_col W2 (length W1)) && hidden_ok Ws'
      end
  end.

(** At least one hidden layer, the right shape, no inactive or redundant hidden neuron. *)
Definition check_not_subnetwork (widths : list nat) (th : list Z) : bool :=
  Nat.leb 3 (length widths) && all_pos widths &&
  Nat.eqb (length th) (n_params widths false) &&
  match widths with
  | [] => false
  | d0 :: rest => hidden_ok (split_layers d0 rest th)
  end.

(** Not a subnetwork, [sigma(0) = 0], [deg sigma >= rmin] with nonzero leading coefficient. *)
Definition check_mlp_hypotheses (widths : list nat) (sigma : list (Z * Z)) (th : list Z)
    (rmin : nat) : bool :=
  let r := nsub (length sigma) 1 in
  check_not_subnetwork widths th && rats_pos sigma &&
  negb (nonzero_q (nth_q sigma 0)) && nonzero_q (nth_q sigma r) && Nat.leb rmin r.
