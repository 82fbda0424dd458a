(** Rank certificates for polynomial MLPs.
    Python twin: certify/checker/kernel/rank.py; Lean twin: lean/NNCert/Rank.lean.
    Lower bound: the kernel recomputes the Jacobian rows of the labels [R] mod p by reverse
    mode (one pass per row, [net_row]) and the shared core (RankCore.v) decides that the minor
    on the columns [C] is nonsingular mod p.
    Upper bound at theta: integer tangents orthogonal to the exact Jacobian rows on the
    unisolvent lattice [{x in N^d0 : |x| <= D}] (exact rationals, or residues modulo pairwise
    coprime moduli whose product exceeds a bound on the integer dot products), independent by
    a nonsingular minor mod p.
    The inverse-product check [check_inverse] below serves the composition-independence
    witnesses (Compind.v). *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net RankCore.
Import ListNotations.
Open Scope Z_scope.
(** Every residue is zero (Coq-only helper of [is_unit_row]). *)
Fixpoint all_zero_int (xs : list int) : bool :=
  match xs with
  | [] => true
  | x :: xs' => PrimInt63.eqb x 0 && all_zero_int xs'
  end.

(** [row = e_k]: 1 at index [k], 0 elsewhere, and [k < length row]. *)
Fixpoint is_unit_row (k : nat) (row : list int) {struct row} : bool :=
  match row with
  | [] => false
  | x :: row' =>
      match k with
      | O => PrimInt63.eqb x 1 && all_zero_int row'
      | S k' => PrimInt63.eqb x 0 && is_unit_row k' row'
      end
  end.

(** [z * r + acc mod p], to the shorter length. *)
Fixpoint add_scaled_mod (p : int) (z : int) (r acc : list int) : list int :=
  match r, acc with
  | x :: r', y :: acc' =>
      PrimInt63.mod (PrimInt63.add (PrimInt63.mul z x) y) p :: add_scaled_mod p z r' acc'
  | _, _ => []
  end.

(** [sum_k zs[k] * rows[k] mod p], a row of length [m]. *)
Fixpoint combo_mod (p : int) (m : nat) (zs : list int) (rows : list (list int)) : list int :=
  match zs, rows with
  | z :: zs', r :: rows' => add_scaled_mod p z r (combo_mod p m zs' rows')
  | _, _ => zeros (arith_mod p) m
  end.

(** Row [i + j] of [M] times [V] is [e_(i+j)] mod p, for every row [j] of [M]. *)
Fixpoint identity_rows (p : int) (r : nat) (M V : list (list int)) (i : nat) : bool :=
  match M with
  | [] => true
  | row :: M' => is_unit_row i (combo_mod p r row V) && identity_rows p r M' V (S i)
  end.

(** Every entry reduced mod p. *)
Definition reduce_rows (p : Z) (M : list (list Z)) : list (list int) :=
  map (ints_mod p) M.

(** [M] and [V] are [r x r] and [M * V = I (mod p)]; then [det M] is a unit mod p. *)
Definition check_inverse (p : Z) (r : nat) (M : list (list Z)) (V : list (list int)) : bool :=
  Nat.eqb (length M) r && rows_len r M && Nat.eqb (length V) r && rows_len r V &&
  identity_rows (Uint63.of_Z p) r (reduce_rows p M) (reduce_int_rows (Uint63.of_Z p) V) O.

(** The Jacobian rows [d f_theta(x_s)[k] / d theta mod p] for the labels [(s, k)], each by
    one reverse pass from the instance reduced mod p. *)
Definition mlp_rows_mod (p : Z) (widths : list nat) (acts_m : list (list int)) (bias : bool)
    (th_m : list int) (samples : list (list Z)) (labels : list (nat * nat)) : list (list int) :=
  let ar := arith_mod (Uint63.of_Z p) in
  map (fun l => net_row ar widths acts_m bias th_m (ints_mod p (nth_row samples (fst l))) (snd l))
    labels.

(** What the claim is about: the network and its parameter point. *)
Record rank_instance := {
  widths : list nat;
  acts : list (list (Z * Z));
  bias : bool;
  theta : list (Z * Z) }.

(** Lower-bound witness: prime, samples, inverses of denominators, the minor's rows and
    columns (the kernel recomputes the minor and eliminates it itself). *)
Record lower_witness := {
  lw_p : Z;
  lw_samples : list (list Z);
  lw_theta_inv : list Z;
  lw_acts_inv : list (list Z);
  lw_rows : list (nat * nat);
  lw_cols : list nat }.

(** Upper-bound witness: integer kernel vectors, the columns of a minor showing them
    independent mod p, and the moduli of the exactness check ([[]]: exact rationals). *)
Record upper_witness := {
  uw_p : Z;
  uw_tangents : list (list Z);
  uw_cols : list nat;
  uw_moduli : list Z }.

(** rank of the Jacobian of [theta -> (f_theta(x_s))_s] at [theta] is [>= r] over Q. *)
Definition check_rank_lower (inst : rank_instance) (w : lower_witness) (r : nat) : bool :=
  let p := lw_p w in
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) (lw_samples w) &&
  p_ok p &&
  rats_inv_ok p (theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (acts inst) (lw_acts_inv w) &&
  check_rank_core p (length (theta inst)) (length (lw_samples w)) (last_width (widths inst))
    (lw_rows w)
    (mlp_rows_mod p (widths inst) (acts_mod p (acts inst) (lw_acts_inv w)) (bias inst)
       (rats_mod p (theta inst) (lw_theta_inv w)) (lw_samples w) (lw_rows w))
    (lw_cols w) r.

(** Every rational has denominator 1. *)
Definition rats_int (rs : list (Z * Z)) : bool := forallb (fun r => Z.eqb (snd r) 1) rs.

(** [rats_int] for every activation. *)
Definition acts_int (acts : list (list (Z * Z))) : bool := forallb rats_int acts.

(** The numerators. *)
Definition nums (rs : list (Z * Z)) : list Z := map fst rs.

(** [|numerator|] of every rational. *)
Definition abs_nums (rs : list (Z * Z)) : list Z := map (fun r => Z.abs (fst r)) rs.

(** The constant list [[v; ...; v]] of length [n]. *)
Fixpoint const_list (n : nat) (v : Z) : list Z :=
  match n with
  | O => []
  | S n' => v :: const_list n' v
  end.

(** The Jacobian rows [d f(x)[j] / d theta] for [j = k, ..., k + count - 1]. *)
Fixpoint rows_from {A : Type} (ar : arith A) (inst : rank_instance) (th : list A)
    (acts : list (list A)) (x : list A) (k count : nat) : list (list A) :=
  match count with
  | O => []
  | S c => net_row ar (widths inst) acts (bias inst) th x k :: rows_from ar inst th acts x (S k) c
  end.

(** All [d_out] Jacobian rows at [x]. *)
Definition out_rows {A : Type} (ar : arith A) (inst : rank_instance) (th : list A)
    (acts : list (list A)) (x : list A) : list (list A) :=
  rows_from ar inst th acts x 0 (last_width (widths inst)).

(** Every tangent is orthogonal mod q to the integer Jacobian rows at every point. *)
Definition mlp_kills_mod (inst : rank_instance) (pts : list (list Z)) (ts : list (list Z))
    (q : Z) : bool :=
  let ar := arith_mod (Uint63.of_Z q) in
  let th := ints_mod q (nums (theta inst)) in
  let acs := map (fun a => ints_mod q (nums a)) (acts inst) in
  let tq := map (ints_mod q) ts in
  forallb (fun x => kills_mod q (out_rows ar inst th acs (ints_mod q x)) tq) pts.

(** Every tangent is orthogonal, exactly over Q, to the Jacobian rows at every point. *)
Definition mlp_kills_q (inst : rank_instance) (pts : list (list Z)) (ts : list (list Z))
  : bool :=
  forallb (fun x =>
    forallb (fun row => forallb (fun t => Z.eqb (fst (dot arith_q row (ints_q t))) 0) ts)
      (out_rows arith_q inst (theta inst) (acts inst) (ints_q x))) pts.

(** A bound on [|row . t|] over every point with entries in [[0, xmax]], every output row
    and tangent: the rows evaluated on [|theta|], [|coefficients|] and [(xmax, ..., xmax)]
    bound every row entry (sums of products of those, each monotone in them). *)
Definition mlp_bound (inst : rank_instance) (xmax : Z) (ts : list (list Z)) : Z :=
  kill_bound (out_rows arith_z inst (abs_nums (theta inst)) (map abs_nums (acts inst))
                (const_list (first_width (widths inst)) xmax)) ts.

(** Every tangent [t] has [d/ds f_(theta + s t)(x) = 0] exactly at every [x] of the lattice
    [{x in N^d0 : |x| <= D}] (unisolvent for the degree [D] of [f] in [x]). Without moduli:
    exact rational rows; with moduli: an integral instance, every [row . t = 0] mod every
    modulus and [|row . t|] below their product, hence [0]. *)
Definition mlp_tangents_kill (inst : rank_instance) (ts : list (list Z)) (qs : list Z) : bool :=
  let D := degree_bound (acts inst) in
  let pts := lattice (first_width (widths inst)) D in
  match qs with
  | [] => mlp_kills_q inst pts ts
  | _ :: _ =>
      rats_int (theta inst) && acts_int (acts inst) && moduli_ok qs &&
      (mlp_bound inst (Z.of_nat D) ts <? prod_z qs) &&
      forallb (mlp_kills_mod inst pts ts) qs
  end.

(** The [s] tangents are independent kernel vectors of [d(theta -> f_theta)] at [theta],
    so its rank at [theta] is [<= u = #params - s]. *)
Definition check_rank_upper (inst : rank_instance) (w : upper_witness) (u : nat) : bool :=
  let n := length (theta inst) in
  let s := length (uw_tangents w) in
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) [] &&
  rats_pos (theta inst) &&
  acts_pos (acts inst) &&
  Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) &&
  mlp_tangents_kill inst (uw_tangents w) (uw_moduli w) &&
  independent_mod (uw_p w) n (uw_tangents w) (uw_cols w).

(** * Equivalence of two parameter points (kind equiv of family mlp) *)

(** [f_th(x)] exactly over Q (unnormalised pairs) at the integer input [x]: [net_eval]'s
    value; its tangent, taken along [(th, x)] itself so that every list has its full
    length, is discarded. *)
Definition mlp_value_q (inst : rank_instance) (th : list (Z * Z)) (x : list Z) : list (Z * Z) :=
  fst (net_eval arith_q (widths inst) (acts inst) (bias inst) th th (ints_q x) (ints_q x)).

(** The instance is well formed, [other] has one entry per parameter, and every denominator
    (of theta, other and the activations) is positive. *)
Definition equiv_shape_ok (inst : rank_instance) (other : list (Z * Z)) : bool :=
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) [] &&
  Nat.eqb (length other) (length (theta inst)) &&
  rats_pos (theta inst) &&
  rats_pos other &&
  acts_pos (acts inst).

(** [f_theta = f_other] as polynomial maps: every output has total degree
    [<= D = degree_bound (acts inst)], and the two agree exactly at every point of the
    principal lattice [{x in N^n0 : |x| <= D}], which is unisolvent for total degree [<= D]. *)
Definition check_mlp_same (inst : rank_instance) (other : list (Z * Z)) : bool :=
  equiv_shape_ok inst other &&
  forallb (fun x => qeq_all (mlp_value_q inst (theta inst) x) (mlp_value_q inst other x))
    (lattice (first_width (widths inst)) (degree_bound (acts inst))).

(** [f_theta(x) <> f_other(x)] at the integer input [x], exactly over Q. *)
Definition check_mlp_differ (inst : rank_instance) (other : list (Z * Z)) (x : list Z) : bool :=
  equiv_shape_ok inst other &&
  Nat.eqb (length x) (first_width (widths inst)) &&
  negb (qeq_all (mlp_value_q inst (theta inst) x) (mlp_value_q inst other x)).
