(** Constant-width ResNets [x -> x + sigma_l(W_l x + b_l)] (or [x + V_l sigma_l(...)] when
    [outer]) in forward mode and in reverse mode (one pass per Jacobian row), and the rank
    checks on them through the shared core RankCore.v (math.md §2).
    Python twin: certify/checker/kernel/resnet.py; Lean twin: lean/NNCert/ResNet.lean.
    Layout of the parameters per layer: [W_l] row by row, each row's bias after it, then [V_l] row by
    row when [outer]. *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank Compind.
Import ListNotations.
Open Scope Z_scope.

(** A width-[n] ResNet with one activation per layer (depth = [length rn_acts]) at theta. *)
Record resnet_instance := {
  rn_width : nat;
  rn_acts : list (list (Z * Z));
  rn_outer : bool;
  rn_theta : list (Z * Z) }.

(** Parameters of one layer: [W] and [b], plus [V] when [outer]. *)
Definition layer_size (n : nat) (outer : bool) : nat :=
  (n * (n + 1) + (if outer then n * n else 0))%nat.

(** Parameters of the whole network. *)
Definition resnet_params (n : nat) (acts : list (list (Z * Z))) (outer : bool) : nat :=
  (length acts * layer_size n outer)%nat.

Section Generic.
Context {A : Type} (ar : arith A).

(** Entrywise sum (to the shorter length). *)
Fixpoint vec_add (a b : list A) : list A :=
  match a, b with
  | x :: a', y :: b' => add ar x y :: vec_add a' b'
  | _, _ => []
  end.

(** [(F(x), dF)] through every layer: [h <- h + sigma(W h + b)] (times [V] when [outer]). *)
Fixpoint resnet_dual (n : nat) (outer : bool) (acts : list (list A)) (th dth h dh : list A)
  : list A * list A :=
  match acts with
  | [] => (h, dh)
  | cs :: acts' =>
      let '(pre, dpre) :=
        layer_dual ar (n + 1) n th dth (h ++ [one ar]) (dh ++ [zero ar]) in
      let '(v, dv) := act_dual ar cs pre dpre in
      let th1 := drop_n (n * (n + 1)) th in
      let dth1 := drop_n (n * (n + 1)) dth in
      let '(v2, dv2, th2, dth2) :=
        if outer then
          let '(w, dw) := layer_dual ar n n th1 dth1 v dv in
          (w, dw, drop_n (n * n) th1, drop_n (n * n) dth1)
        else (v, dv, th1, dth1) in
      resnet_dual n outer acts' th2 dth2 (vec_add h v2) (vec_add dh dv2)
  end.

(** [(d F_k / d theta] for the layers [acts], [d F_k / d h)] by reverse mode, for the layers
    [h <- h + sigma(W h + b)] (times [V] when [outer]) applied to [h]: one pass per row. *)
Fixpoint resnet_back (n : nat) (outer : bool) (acts : list (list A)) (th h : list A) (k : nat)
  : list A * list A :=
  match acts with
  | [] => ([], unit_vec ar n k)
  | cs :: acts' =>
      let hb := h ++ [one ar] in
      let '(v, dv) := act_vd ar cs (layer_vals ar (n + 1) n th hb) in
      let thv := drop_n (n * (n + 1)) th in
      let out := if outer then layer_vals ar n n thv v else v in
      let '(grest, gh) :=
        resnet_back n outer acts' (drop_n (layer_size n outer) th) (vec_add h out) k in
      let gv := if outer then take_n n (back_rows ar n gh thv (zeros ar n)) else gh in
      let gpre := hadamard ar dv gv in
      let gw := scale_each ar gpre hb in
      let gthis := if outer then gw ++ scale_each ar gh v else gw in
      (gthis ++ grest,
       vec_add gh (take_n n (back_rows ar (n + 1) gpre th (zeros ar (n + 1)))))
  end.

(** The Jacobian row [d F_theta(x)[k] / d theta], one reverse pass. *)
Definition resnet_row (n : nat) (outer : bool) (acts : list (list A)) (th x : list A) (k : nat)
  : list A :=
  fst (resnet_back n outer acts th x k).

End Generic.

(** The instance is well formed for the given samples. *)
Definition resnet_shape_ok (inst : resnet_instance) (samples : list (list Z)) : bool :=
  Nat.leb 1 (rn_width inst) && Nat.leb 1 (length (rn_acts inst)) &&
  acts_nonconst (rn_acts inst) &&
  Nat.eqb (length (rn_theta inst)) (resnet_params (rn_width inst) (rn_acts inst) (rn_outer inst)) &&
  rows_len (rn_width inst) samples.

(** The Jacobian rows mod p for the labels [(s, k)]. *)
Definition resnet_rows_mod (p : Z) (n : nat) (outer : bool) (acts_m : list (list int))
    (th_m : list int) (samples : list (list Z)) (labels : list (nat * nat)) : list (list int) :=
  let ar := arith_mod (Uint63.of_Z p) in
  map (fun l => resnet_row ar n outer acts_m th_m (ints_mod p (nth_row samples (fst l))) (snd l))
    labels.

(** rank of the Jacobian of [theta -> (F_theta(x_s))_s] at [theta] is [>= r] over Q. *)
Definition check_rank_lower_resnet (inst : resnet_instance) (w : lower_witness) (r : nat)
  : bool :=
  let p := lw_p w in
  resnet_shape_ok inst (lw_samples w) &&
  p_ok p &&
  rats_inv_ok p (rn_theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (rn_acts inst) (lw_acts_inv w) &&
  check_rank_core p (length (rn_theta inst)) (length (lw_samples w)) (rn_width inst) (lw_rows w)
    (resnet_rows_mod p (rn_width inst) (rn_outer inst) (acts_mod p (rn_acts inst) (lw_acts_inv w))
       (rats_mod p (rn_theta inst) (lw_theta_inv w)) (lw_samples w) (lw_rows w))
    (lw_cols w) r.

(** The Jacobian rows [d F(x)[j] / d theta] for [j = k, ..., k + count - 1]. *)
Fixpoint resnet_rows_from {A : Type} (ar : arith A) (inst : resnet_instance) (th : list A)
    (acts : list (list A)) (x : list A) (k count : nat) : list (list A) :=
  match count with
  | O => []
  | S c => resnet_row ar (rn_width inst) (rn_outer inst) acts th x k ::
             resnet_rows_from ar inst th acts x (S k) c
  end.

(** Every tangent is orthogonal mod q to the integer Jacobian rows at every point. *)
Definition resnet_kills_mod (inst : resnet_instance) (pts : list (list Z)) (ts : list (list Z))
    (q : Z) : bool :=
  let ar := arith_mod (Uint63.of_Z q) in
  let th := ints_mod q (nums (rn_theta inst)) in
  let acs := map (fun a => ints_mod q (nums a)) (rn_acts inst) in
  let tq := map (ints_mod q) ts in
  forallb (fun x => kills_mod q (resnet_rows_from ar inst th acs (ints_mod q x) 0 (rn_width inst))
                      tq) pts.

(** Every tangent is orthogonal, exactly over Q, to the Jacobian rows at every point. *)
Definition resnet_kills_q (inst : resnet_instance) (pts : list (list Z)) (ts : list (list Z))
  : bool :=
  forallb (fun x =>
    forallb (fun row => forallb (fun t => Z.eqb (fst (dot arith_q row (ints_q t))) 0) ts)
      (resnet_rows_from arith_q inst (rn_theta inst) (rn_acts inst) (ints_q x) 0 (rn_width inst)))
    pts.

(** A bound on [|row . t|] at every point with entries in [[0, xmax]] (as [mlp_bound]). *)
Definition resnet_bound (inst : resnet_instance) (xmax : Z) (ts : list (list Z)) : Z :=
  kill_bound (resnet_rows_from arith_z inst (abs_nums (rn_theta inst)) (map abs_nums (rn_acts inst))
                (const_list (rn_width inst) xmax) 0 (rn_width inst)) ts.

(** Every tangent annihilates the differential of [theta -> F_theta] on the unisolvent
    lattice of degree [prod deg sigma_l] (as [mlp_tangents_kill]). *)
Definition resnet_tangents_kill (inst : resnet_instance) (ts : list (list Z)) (qs : list Z)
  : bool :=
  let D := degree_bound (rn_acts inst) in
  let pts := lattice (rn_width inst) D in
  match qs with
  | [] => resnet_kills_q inst pts ts
  | _ :: _ =>
      rats_int (rn_theta inst) && acts_int (rn_acts inst) && moduli_ok qs &&
      (resnet_bound inst (Z.of_nat D) ts <? prod_z qs) &&
      forallb (resnet_kills_mod inst pts ts) qs
  end.

(** The tangents are independent kernel vectors of [d(theta -> F_theta)] at [theta], so its
    rank there is [<= u = #params - s]. *)
Definition check_rank_upper_resnet (inst : resnet_instance) (w : upper_witness) (u : nat)
  : bool :=
  let n := length (rn_theta inst) in
  let s := length (uw_tangents w) in
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) &&
  resnet_tangents_kill inst (uw_tangents w) (uw_moduli w) &&
  independent_mod (uw_p w) n (uw_tangents w) (uw_cols w).

(** * Orbits (math.md §2). Python twin: the "orbits" section of certify/checker/kernel/resnet.py. *)

(** Entry [k] of the flipped parameter vector: neuron [neuron] of layer [layer] maps
    [w -> -w] and [b -> 2 t0 - b]; every other entry is unchanged. *)
Definition flip_param (n : nat) (outer : bool) (layer neuron : nat) (t0 : Z * Z) (k : nat)
    (v : Z * Z) : Z * Z :=
  let size := layer_size n outer in
  let rem := (k - layer * size)%nat in
  if negb (Nat.eqb (Nat.div k size) layer) || Nat.leb (n * (n + 1)) rem ||
     negb (Nat.eqb (Nat.div rem (n + 1)) neuron)
  then v
  else if Nat.ltb (Nat.modulo rem (n + 1)) n then (- fst v, snd v)
  else qadd (qmul (2, 1) t0) (- fst v, snd v).

(** Coq-only helper of [flip_params]: [flip_param] at indices [k, k+1, ...]. *)
Fixpoint flip_params_from (n : nat) (outer : bool) (layer neuron : nat) (t0 : Z * Z)
    (k : nat) (th : list (Z * Z)) : list (Z * Z) :=
  match th with
  | [] => []
  | v :: th' => flip_param n outer layer neuron t0 k v ::
                flip_params_from n outer layer neuron t0 (S k) th'
  end.

(** The flipped parameter vector. *)
Definition flip_params (n : nat) (outer : bool) (layer neuron : nat) (t0 : Z * Z)
    (th : list (Z * Z)) : list (Z * Z) :=
  flip_params_from n outer layer neuron t0 O th.

(** The activation of [layer] (empty past the last layer). *)
Definition act_at (acts : list (list (Z * Z))) (layer : nat) : list (Z * Z) :=
  nth layer acts [].

(** The parameters of one layer ([W] with biases, then [V] when [outer]). *)
Definition layer_params {A : Type} (n : nat) (outer : bool) (layer : nat) (th : list A)
  : list A :=
  take_n (layer_size n outer) (drop_n (layer * layer_size n outer) th).

(** The maps [h -> h + sigma(W h + b)] (times [V] when [outer]) of [layer] under theta and
    [th2] agree exactly at every [h] in [pts]. *)
Fixpoint same_layer (inst : resnet_instance) (layer : nat) (th2 : list (Z * Z))
    (pts : list (list Z)) : bool :=
  match pts with
  | [] => true
  | x :: pts' =>
      let n := rn_width inst in
      let cs := [act_at (rn_acts inst) layer] in
      let a_th := layer_params n (rn_outer inst) layer (rn_theta inst) in
      let b_th := layer_params n (rn_outer inst) layer th2 in
      let z := zeros arith_q (length a_th) in
      let zx := zeros arith_q n in
      qeq_all (fst (resnet_dual arith_q n (rn_outer inst) cs a_th z (ints_q x) zx))
              (fst (resnet_dual arith_q n (rn_outer inst) cs b_th z (ints_q x) zx)) &&
      same_layer inst layer th2 pts'
  end.

(** [th2] is the flip of [neuron] in [layer] at [t0] applied to theta, and the layer's map is
    unchanged (equal on the unisolvent lattice of degree [deg sigma_layer], hence everywhere);
    the other layers are untouched, so [F_theta2 = F_theta]. *)
Definition check_orbit_generator (inst : resnet_instance) (layer neuron : nat) (t0 : Z * Z)
    (th2 : list (Z * Z)) : bool :=
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  (0 <? snd t0) &&
  Nat.ltb layer (length (rn_acts inst)) &&
  Nat.ltb neuron (rn_width inst) &&
  rats_pos th2 &&
  qeq_all th2 (flip_params (rn_width inst) (rn_outer inst) layer neuron t0 (rn_theta inst)) &&
  same_layer inst layer th2
    (lattice (rn_width inst) (length (act_at (rn_acts inst) layer) - 1)).

(** [F_th(x)] exactly over Q (unnormalised pairs): the ResNet of [inst] at the parameters
    [th] and the integer input [x] (the value of [resnet_dual]; its tangent, taken along
    [(th, x)] itself, is discarded). *)
Definition resnet_value_q (inst : resnet_instance) (th : list (Z * Z)) (x : list Z)
    : list (Z * Z) :=
  fst (resnet_dual arith_q (rn_width inst) (rn_outer inst) (rn_acts inst) th th
         (ints_q x) (ints_q x)).

(** The instance is well formed, every listed vector has one entry per parameter, and every
    denominator (of theta, the listed vectors and the activations) is positive. *)
Definition orbit_shape_ok (inst : resnet_instance) (orbit : list (list (Z * Z))) : bool :=
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  forallb (fun th => Nat.eqb (length th) (length (rn_theta inst)) && rats_pos th) orbit.

(** No two entries of [xs] are equal as lists of rationals ([qeq_all]). *)
Fixpoint distinct_q (xs : list (list (Z * Z))) : bool :=
  match xs with
  | [] => true
  | a :: xs' => forallb (fun b => negb (qeq_all a b)) xs' && distinct_q xs'
  end.

(** Every listed parameter vector [th] gives the map [F_theta] and no two are equal: [F_th]
    and [F_theta] agree exactly at every point of the principal lattice
    [{x in N^n : |x| <= D}], [D = degree_bound (rn_acts inst)] >= the total degree of every
    output, which is unisolvent for total degree [<= D] ([F_theta(x)] computed once per
    point). The shape is tested by [if], not [&&]: the VM evaluates both arguments of [andb],
    and a malformed instance (more layers than theta has parameters for) would otherwise still
    be evaluated on its whole lattice. *)
Definition check_resnet_orbit (inst : resnet_instance) (orbit : list (list (Z * Z))) : bool :=
  if orbit_shape_ok inst orbit then
    forallb (fun x =>
        let v := resnet_value_q inst (rn_theta inst) x in
        forallb (fun th => qeq_all v (resnet_value_q inst th x)) orbit)
      (lattice (rn_width inst) (degree_bound (rn_acts inst))) &&
    distinct_q orbit
  else false.

(** * Roots of unity: the ring [Q[z]/(z^g - 1)] (math.md §2).
    An element is its [g] rational coefficients on [1, z, ..., z^(g-1)]. Every [zeta] in
    [mu_g] is a root of [z^g - 1], so an identity in this ring holds for every complex [g]-th
    root of unity. *)

(** Coefficientwise sum. *)
Fixpoint cyc_add (a b : list (Z * Z)) : list (Z * Z) :=
  match a, b with
  | x :: a', y :: b' => qadd x y :: cyc_add a' b'
  | _, _ => []
  end.

(** The rational multiple [c * b]. *)
Definition cyc_scale (c : Z * Z) (b : list (Z * Z)) : list (Z * Z) := map (qmul c) b.

(** [z * b]: the coefficient of [z^(g-1)] wraps round to [1] because [z^g = 1]. *)
Definition cyc_rot (b : list (Z * Z)) : list (Z * Z) :=
  match rev b with
  | [] => []
  | l :: r => l :: rev r
  end.

(** [acc + a * b] ([b] is multiplied by [z] once per coefficient of [a]). *)
Fixpoint cyc_mul_acc (a b acc : list (Z * Z)) : list (Z * Z) :=
  match a with
  | [] => acc
  | c :: a' => cyc_mul_acc a' (cyc_rot b) (cyc_add acc (cyc_scale c b))
  end.

(** The product in [Q[z]/(z^g - 1)], [g = length b]. *)
Definition cyc_mul (a b : list (Z * Z)) : list (Z * Z) :=
  cyc_mul_acc a b (zeros arith_q (length b)).

(** The rational [r] as an element of [Q[z]/(z^g - 1)]. *)
Definition cyc_const (g : nat) (r : Z * Z) : list (Z * Z) :=
  match g with
  | O => []
  | S g' => r :: zeros arith_q g'
  end.

(** [Q[z]/(z^g - 1)]. *)
Definition arith_cyc (g : nat) : arith (list (Z * Z)) :=
  mk_arith (list (Z * Z)) cyc_add cyc_mul (zeros arith_q g) (cyc_const g (1, 1)).

(** The class of [z]: a formal [g]-th root of unity. *)
Definition cyc_z (g : nat) : list (Z * Z) := cyc_rot (cyc_const g (1, 1)).

(** Every element has [g] coefficients with positive denominators. *)
Fixpoint cycs_ok (g : nat) (xs : list (list (Z * Z))) : bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.eqb (length x) g && rats_pos x && cycs_ok g xs'
  end.

(** Equal lengths and equal elements, coefficient by coefficient. *)
Fixpoint cyc_eq_all (a b : list (list (Z * Z))) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeq_all x y && cyc_eq_all a' b'
  | _, _ => false
  end.

(** Rationals as constants of the ring. *)
Definition cyc_consts (g : nat) (xs : list (Z * Z)) : list (list (Z * Z)) :=
  map (cyc_const g) xs.

(** Integers as constants of the ring. *)
Definition cyc_ints (g : nat) (xs : list Z) : list (list (Z * Z)) :=
  map (fun x => cyc_const g (x, 1)) xs.

(** [a - b]. *)
Definition qsub (a b : Z * Z) : Z * Z := qadd a (- fst b, snd b).

(** [sigma(t0 + z (y - t0)) = sigma(y)] in [Q[z]/(z^g - 1)] at every [y] in [ys]. *)
Fixpoint layer_symmetric_at (g : nat) (cs : list (Z * Z)) (t0 : Z * Z) (ys : list Z) : bool :=
  match ys with
  | [] => true
  | y :: ys' =>
      let a := cyc_add (cyc_const g t0) (cyc_mul (cyc_z g) (cyc_const g (qsub (y, 1) t0))) in
      let lhs := fst (horner_dual (arith_cyc g) (cyc_consts g cs) a (zeros arith_q g)) in
      let rhs := fst (horner_dual arith_q cs (y, 1) (0, 1)) in
      qeq_all lhs (cyc_const g rhs) && layer_symmetric_at g cs t0 ys'
  end.

(** [sigma(t0 + z (y - t0)) = sigma(y)] at [y = 0, ..., length cs - 1]: both sides are
    polynomials in [y] of degree [< length cs], so (Vandermonde) they are equal as
    polynomials, and [sigma(t0 + zeta (y - t0)) = sigma(y)] for all complex [y] and [zeta] in
    [mu_g]. *)
Definition layer_symmetric (g : nat) (cs : list (Z * Z)) (t0 : Z * Z) : bool :=
  layer_symmetric_at g cs t0 (range_from 0 (length cs)).

(** Every neuron of [layer] may be acted on by [mu_g] at [t0] ([w -> zeta w],
    [b -> zeta (b - t0) + t0]) without changing its output function, for every weight and
    bias. *)
Definition check_layer_symmetry (inst : resnet_instance) (layer g : nat) (t0 : Z * Z) : bool :=
  resnet_shape_ok inst [] &&
  acts_pos (rn_acts inst) &&
  (0 <? snd t0) &&
  Nat.leb 2 g &&
  Nat.leb g (length (act_at (rn_acts inst) layer)) &&
  Nat.ltb layer (length (rn_acts inst)) &&
  layer_symmetric g (act_at (rn_acts inst) layer) t0.

(** Entry [k] of the parameters acted on by [z] at one neuron: [w -> z w],
    [b -> z (b - t0) + t0] for neuron [neuron] of layer [layer]; every other entry is the
    constant [v]. *)
Definition root_param (n : nat) (outer : bool) (layer neuron g : nat) (t0 : Z * Z) (k : nat)
    (v : Z * Z) : list (Z * Z) :=
  let size := layer_size n outer in
  let rem := (k - layer * size)%nat in
  if negb (Nat.eqb (Nat.div k size) layer) || Nat.leb (n * (n + 1)) rem ||
     negb (Nat.eqb (Nat.div rem (n + 1)) neuron)
  then cyc_const g v
  else if Nat.ltb (Nat.modulo rem (n + 1)) n then cyc_mul (cyc_z g) (cyc_const g v)
  else cyc_add (cyc_mul (cyc_z g) (cyc_const g (qsub v t0))) (cyc_const g t0).

(** Coq-only helper of [root_params]: [root_param] at indices [k, k+1, ...]. *)
Fixpoint root_params_from (n : nat) (outer : bool) (layer neuron g : nat) (t0 : Z * Z)
    (k : nat) (th : list (Z * Z)) : list (list (Z * Z)) :=
  match th with
  | [] => []
  | v :: th' => root_param n outer layer neuron g t0 k v ::
                root_params_from n outer layer neuron g t0 (S k) th'
  end.

(** Theta acted on by [z] at one neuron. *)
Definition root_params (n : nat) (outer : bool) (layer neuron g : nat) (t0 : Z * Z)
    (th : list (Z * Z)) : list (list (Z * Z)) :=
  root_params_from n outer layer neuron g t0 O th.

(** As [same_layer], with [th2] over [Q[z]/(z^g - 1)]. *)
Fixpoint same_layer_cyc (inst : resnet_instance) (g layer : nat) (th2 : list (list (Z * Z)))
    (pts : list (list Z)) : bool :=
  match pts with
  | [] => true
  | x :: pts' =>
      let n := rn_width inst in
      let ar := arith_cyc g in
      let cs := [cyc_consts g (act_at (rn_acts inst) layer)] in
      let a_th := cyc_consts g (layer_params n (rn_outer inst) layer (rn_theta inst)) in
      let b_th := layer_params n (rn_outer inst) layer th2 in
      let z := zeros ar (length a_th) in
      let zx := zeros ar n in
      cyc_eq_all (fst (resnet_dual ar n (rn_outer inst) cs a_th z (cyc_ints g x) zx))
                 (fst (resnet_dual ar n (rn_outer inst) cs b_th z (cyc_ints g x) zx)) &&
      same_layer_cyc inst g layer th2 pts'
  end.

(** [th2] (over [Q[z]/(z^g - 1)]) is theta acted on by [z] at one neuron, and the layer's map
    is unchanged (unisolvent lattice of degree [deg sigma_layer]), so [F_theta2 = F_theta] in
    that ring, hence for every complex [zeta] in [mu_g] substituted for [z]. *)
Definition check_root_generator (inst : resnet_instance) (layer neuron g : nat) (t0 : Z * Z)
    (th2 : list (list (Z * Z))) : bool :=
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  (0 <? snd t0) &&
  Nat.leb 2 g &&
  Nat.leb g (length (act_at (rn_acts inst) layer)) &&
  Nat.ltb layer (length (rn_acts inst)) &&
  Nat.ltb neuron (rn_width inst) &&
  cycs_ok g th2 &&
  cyc_eq_all th2 (root_params (rn_width inst) (rn_outer inst) layer neuron g t0 (rn_theta inst)) &&
  same_layer_cyc inst g layer th2
    (lattice (rn_width inst) (length (act_at (rn_acts inst) layer) - 1)).

(** * Implicit equations of scalar ResNets (Figure 1, math.md §2).
    [F(x) = sum_k c_k(theta) x^k] for width 1; the [c_k] are polynomials in the parameters.
    An equation [P(c_0, ..., c_D) = 0] holds on the whole image iff [P(c(theta))] is the zero
    polynomial. *)

(** Polynomials in [nvars] variables as term lists, like terms combined after each step. *)
Definition arith_terms (nvars : nat) : arith (list ((Z * Z) * list nat)) :=
  mk_arith (list ((Z * Z) * list nat))
    (fun a b => normalize (a ++ b))
    (fun a b => normalize (poly_mul_t a b))
    []
    [const_term (1, 1) nvars].

(** The exponent vector of the variable [k]. *)
Definition unit_exps (nvars k : nat) : list nat :=
  map (fun j => if Nat.eqb j k then 1%nat else 0%nat) (seq 0 nvars).

(** The variable [k] as a polynomial. *)
Definition var_terms (nvars k : nat) : list ((Z * Z) * list nat) := [((1, 1), unit_exps nvars k)].

(** Coq-only helper of [param_terms]: parameters [k, k+1, ...]. *)
Fixpoint param_terms_from (nvars k : nat) (free : list bool)
  : list (list ((Z * Z) * list nat)) :=
  match free with
  | [] => []
  | f :: free' => (if f then var_terms nvars k else []) :: param_terms_from nvars (S k) free'
  end.

(** Entry [k] of theta is the variable [k] where free, else the constant 0. *)
Definition param_terms (nvars : nat) (free : list bool) : list (list ((Z * Z) * list nat)) :=
  param_terms_from nvars O free.

(** [F(x)] of a width-1 ResNet as a polynomial in the parameters (variables [0 .. P-1], fixed
    at 0 where not free) and [x] (variable [P]). *)
Definition scalar_map_terms (inst : resnet_instance) (free : list bool)
  : list ((Z * Z) * list nat) :=
  let nv := S (length free) in
  let ar := arith_terms nv in
  let acts := map (map (fun c => [const_term c nv])) (rn_acts inst) in
  let th := param_terms nv free in
  nth 0 (fst (resnet_dual ar 1 (rn_outer inst) acts th (zeros ar (length th))
                 [var_terms nv (length free)] [[]])) [].

(** The coefficient of [x^k] ([x] the variable with index [x]) as a polynomial in the others. *)
Definition coeff_x (ts : list ((Z * Z) * list nat)) (x k : nat) : list ((Z * Z) * list nat) :=
  map (fun t => (fst t, take_n x (snd t) ++ [0%nat]))
      (filter (fun t => Nat.eqb (nth_nat (snd t) x) k) ts).

(** [c_0, ..., c_degree]. *)
Definition coeffs_x (ts : list ((Z * Z) * list nat)) (x degree : nat)
  : list (list ((Z * Z) * list nat)) :=
  map (coeff_x ts x) (seq 0 (S degree)).

(** [eq(c_0, ..., c_degree)] is the zero polynomial in the free parameters, where
    [F(x) = sum_k c_k x^k] (exactly: [F - sum_k c_k x^k], like terms combined, has only zero
    coefficients, so no term of [F] of degree above [degree] in [x] can hide): every point of
    the image of [theta -> (c_0, ..., c_degree)] (parameters fixed at 0 where not free)
    satisfies [eq = 0]. *)
Definition check_implicit (inst : resnet_instance) (free : list bool) (degree : nat)
    (eq : list ((Z * Z) * list nat)) : bool :=
  let P := length free in
  let nv := S P in
  let ar := arith_terms nv in
  let ts := scalar_map_terms inst free in
  let cs := coeffs_x ts P degree in
  let value := poly_eval ar (map (fun c => [const_term c nv]) (term_coeffs eq)) (term_exps eq) cs in
  let expansion := horner ar cs (var_terms nv P) in
  Nat.eqb (rn_width inst) 1 &&
  Nat.leb 1 (length (rn_acts inst)) &&
  acts_nonconst (rn_acts inst) &&
  acts_pos (rn_acts inst) &&
  Nat.eqb P (resnet_params 1 (rn_acts inst) (rn_outer inst)) &&
  exps_ok (S degree) eq &&
  rats_pos (term_coeffs eq) &&
  negb (all_zero_terms (normalize eq)) &&
  all_zero_terms (normalize (ts ++ terms_scale (const_term (-1, 1) nv) expansion)) &&
  all_zero_terms (normalize value).

(** * Diagnostics of critical points (math.md §2). *)

(** Row [i] of [W_layer] is zero: neuron [i] of the layer is constant. *)
Definition row_is_zero (n : nat) (outer : bool) (th : list (Z * Z)) (layer i : nat) : bool :=
  all_zero_q (take_n n (drop_n (i * (n + 1)) (layer_params n outer layer th))).

(** [(layer, neuron)] for every zero row of a weight matrix [W_layer]. *)
Definition zero_rows (inst : resnet_instance) : list (nat * nat) :=
  let n := rn_width inst in
  flat_map (fun ell => map (fun i => (ell, i))
                           (filter (fun i => row_is_zero n (rn_outer inst) (rn_theta inst) ell i)
                                   (seq 0 n)))
           (seq 0 (length (rn_acts inst))).

(** The layer adds a constant ([W_layer = 0]) or nothing ([V_layer = 0] when [outer]). *)
Definition layer_dead (inst : resnet_instance) (layer : nat) : bool :=
  let n := rn_width inst in
  let v := drop_n (n * (n + 1)) (layer_params n (rn_outer inst) layer (rn_theta inst)) in
  forallb (fun i => row_is_zero n (rn_outer inst) (rn_theta inst) layer i) (seq 0 n) ||
  (rn_outer inst && all_zero_q v).

(** Every dead layer. *)
Definition dead_layers (inst : resnet_instance) : list nat :=
  filter (layer_dead inst) (seq 0 (length (rn_acts inst))).

(** Coq-only helper of [check_diagnostics]: equality of lists of pairs of naturals. *)
Fixpoint pairs_eqb (a b : list (nat * nat)) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.eqb (fst x) (fst y) && Nat.eqb (snd x) (snd y) && pairs_eqb a' b'
  | _, _ => false
  end.

(** Coq-only helper of [check_diagnostics]: equality of lists of naturals. *)
Fixpoint nats_eqb (a b : list nat) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.eqb x y && nats_eqb a' b'
  | _, _ => false
  end.

(** [rows] and [dead] are exactly the zero rows and the dead layers of theta. *)
Definition check_diagnostics (inst : resnet_instance) (rows : list (nat * nat)) (dead : list nat)
  : bool :=
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  pairs_eqb rows (zero_rows inst) &&
  nats_eqb dead (dead_layers inst).

(** * Trivial groups: orbits of size 1 (math.md §2).
    If [tau(s) = sigma(s + t0)] is a polynomial in [s^g] with [g >= 2] and [d = deg sigma],
    then [g | d] and the coefficient of [s^(d-1)], [a_(d-1) + d a_d t0], vanishes:
    [t0 = -a_(d-1) / (d a_d)] is forced. So the group of a layer is trivial iff at that [t0]
    [tau] has a term [s^k] with [k] odd (real) or, for every [g = 2, ..., d], with [g] not
    dividing [k] (complex). The support of [tau] is computed in integers. *)

(** [-a_(d-1) / (d a_d)], [d = length cs - 1 >= 1], denominator made positive. *)
Definition forced_t0 (cs : list (Z * Z)) : Z * Z :=
  let d := (length cs - 1)%nat in
  if Nat.ltb d 1 then (0, 1) else
  let p1 := fst (nth_q cs (d - 1)) in
  let q1 := snd (nth_q cs (d - 1)) in
  let p2 := fst (nth_q cs d) in
  let q2 := snd (nth_q cs d) in
  if p2 <? 0 then (p1 * q2, - (q1 * Z.of_nat d * p2))
  else (- (p1 * q2), q1 * Z.of_nat d * p2).

(** The product of the denominators. *)
Fixpoint prod_dens (cs : list (Z * Z)) : Z :=
  match cs with
  | [] => 1
  | c :: cs' => snd c * prod_dens cs'
  end.

(** [M * cs[j]] as integers, [M = pre * prod_dens cs]. *)
Fixpoint clear_dens (pre : Z) (cs : list (Z * Z)) : list Z :=
  match cs with
  | [] => []
  | c :: cs' => fst c * pre * prod_dens cs' :: clear_dens (pre * snd c) cs'
  end.

(** The sum of two integer coefficient lists (the longer one's tail kept). *)
Fixpoint zpoly_add (a b : list Z) : list Z :=
  match a, b with
  | [], _ => b
  | _, [] => a
  | x :: a', y :: b' => (x + y) :: zpoly_add a' b'
  end.

(** [(u + p) * P]. *)
Definition times_u_plus (p : Z) (ps : list Z) : list Z :=
  zpoly_add (map (fun x => p * x) ps) (0 :: ps).

(** [W(u) = q^(L-1) sigma((u + p) / q)], [L = length cs]: the coefficient of [u^k] is
    [q^(L-1-k) tau_k], [tau(s) = sigma(s + p/q)], so it has the support of [tau]. *)
Fixpoint taylor_int (p q : Z) (cs : list Z) : list Z :=
  match cs with
  | [] => []
  | a :: cs' => zpoly_add [a * pow_ar arith_z q (length cs')] (times_u_plus p (taylor_int p q cs'))
  end.

(** Some [ws[i] <> 0] whose exponent [k + i] is not a multiple of [g]. *)
Fixpoint off_from (g k : nat) (ws : list Z) : bool :=
  match ws with
  | [] => false
  | w :: ws' => (negb (Z.eqb w 0) && negb (Nat.eqb (Nat.modulo (k) g) 0)) || off_from g (S k) ws'
  end.

(** The group of a layer with activation [cs] is trivial: degree [d >= 1] with [a_d <> 0], and
    at [forced_t0 cs] the translate has a term [s^k] with [k] odd (real) or, for every
    [g = 2, ..., d], with [g] not dividing [k] (complex). *)
Definition layer_trivial (cplx : bool) (cs : list (Z * Z)) : bool :=
  let d := (length cs - 1)%nat in
  let t0 := forced_t0 cs in
  let ws := taylor_int (fst t0) (snd t0) (clear_dens 1 cs) in
  let orders := if cplx then range_nat 2 (d - 1) else [2%nat] in
  Nat.leb 1 d &&
  nonzero_q (nth_q cs d) &&
  forallb (fun g => off_from g 0 ws) orders.

(** Every layer's group is trivial, so the orbit of theta is [{theta}], and [orbit] lists
    exactly that one element. *)
Definition check_trivial_orbit (inst : resnet_instance) (cplx : bool)
    (orbit : list (list (Z * Z))) : bool :=
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  forallb (layer_trivial cplx) (rn_acts inst) &&
  match orbit with
  | [e] => rats_pos e && qeq_all e (rn_theta inst)
  | _ => false
  end.

(** * The coefficients of [F_theta] at width one (math.md §2). *)

(** [F_theta(x)] of a width-1 ResNet at theta, as a polynomial in [x] (variable 0). *)
Definition theta_map_terms (inst : resnet_instance) : list ((Z * Z) * list nat) :=
  let ar := arith_terms 1 in
  let acts := map (map (fun c => [const_term c 1])) (rn_acts inst) in
  let th := map (fun t => [const_term t 1]) (rn_theta inst) in
  nth 0 (fst (resnet_dual ar 1 (rn_outer inst) acts th (zeros ar (length th))
                 [var_terms 1 0] [[]])) [].

(** [- sum_j cs[j] x^(k + j)] as terms over the one variable [x]. *)
Fixpoint neg_coeff_terms (k : nat) (cs : list (Z * Z)) : list ((Z * Z) * list nat) :=
  match cs with
  | [] => []
  | c :: cs' => (qneg c, [k]) :: neg_coeff_terms (S k) cs'
  end.

(** [cs = [c_0, ..., c_D]] are the coefficients of [F_theta(x) = sum_k c_k x^k] for the
    width-1 ResNet at theta, [D = prod deg sigma_l]: [F_theta - sum_k c_k x^k], like terms
    combined, has only zero coefficients (an identity of polynomials, so no term of [F_theta]
    of degree above [D] can hide). *)
Definition check_scalar_coeffs (inst : resnet_instance) (cs : list (Z * Z)) : bool :=
  Nat.eqb (rn_width inst) 1 &&
  resnet_shape_ok inst [] &&
  rats_pos (rn_theta inst) &&
  acts_pos (rn_acts inst) &&
  rats_pos cs &&
  Nat.eqb (length cs) (S (degree_bound (rn_acts inst))) &&
  all_zero_terms (normalize (theta_map_terms inst ++ neg_coeff_terms 0 cs)).

(** * The critical locus of a scalar ResNet as a certificate (math.md §2).
    [J(theta) = (d c_k / d theta_j)] is the Jacobian of [theta -> (c_0, ..., c_D)], where
    [F_theta(x) = sum_k c_k(theta) x^k] (width 1), a matrix of polynomials in theta recomputed
    from the network. With [g = min(D + 1, #params)], the certificate ships [P], cofactors
    [Q_i] and coefficients [c_i] with [M_i = Q_i P] for ALL [g x g] minors [M_i] of [J] and
    [sum_i c_i M_i = lam P^k] ([lam <> 0]). Python twin: the last section of
    certify/checker/kernel/resnet.py. *)

(** Coq-only helper of [poly_deriv]: entry [j] of the exponent vector lowered by one. *)
Fixpoint dec_at (es : list nat) (j : nat) : list nat :=
  match es, j with
  | [], _ => []
  | e :: es', O => (e - 1)%nat :: es'
  | e :: es', S j' => e :: dec_at es' j'
  end.

(** The formal partial derivative [d p / d x_j] (terms in the order of [p]). *)
Definition poly_deriv (p : list ((Z * Z) * list nat)) (j : nat) : list ((Z * Z) * list nat) :=
  map (fun t => (qmul (Z.of_nat (nth_nat (snd t) j), 1) (fst t), dec_at (snd t) j))
      (filter (fun t => Nat.ltb 0 (nth_nat (snd t) j)) p).

(** Row [k], column [j]: [d c_k / d theta_j] as a polynomial in the [n = #params]
    parameters ([scalar_map_terms] with every parameter free, the exponent of [x] dropped). *)
Definition jacobian_terms (inst : resnet_instance) : list (list (list ((Z * Z) * list nat))) :=
  let n := length (rn_theta inst) in
  let D := degree_bound (rn_acts inst) in
  let cs := coeffs_x (scalar_map_terms inst (repeat true n)) n D in
  let cs' := map (map (fun t => (fst t, take_n n (snd t)))) cs in
  map (fun c => map (fun j => normalize (poly_deriv c j)) (seq 0 n)) cs'.

(** Coq-only helper of [det_terms]: the list without its entry [j]. *)
Fixpoint remove_at {B : Type} (j : nat) (xs : list B) : list B :=
  match xs, j with
  | [], _ => []
  | _ :: xs', O => xs'
  | x :: xs', S j' => x :: remove_at j' xs'
  end.

(** Coq-only helper of [det_terms]: the sign [(-1)^j]. *)
Definition alt_sign (j : nat) : Z * Z := if Nat.even j then (1, 1) else (-1, 1).

(** The determinant of the [n x n] polynomial matrix [m] ([nv] variables) by cofactor
    expansion along the first row: [sum_j (-1)^j m[0][j] det(m without row 0, column j)]. *)
Fixpoint det_terms (nv n : nat) (m : list (list (list ((Z * Z) * list nat))))
  : list ((Z * Z) * list nat) :=
  match n with
  | O => [const_term (1, 1) nv]
  | S n' =>
      match m with
      | [] => []
      | r :: rest =>
          (fix go (r : list (list ((Z * Z) * list nat))) (j : nat) : list ((Z * Z) * list nat) :=
             match r with
             | [] => []
             | e :: r' =>
                 normalize (terms_scale (const_term (alt_sign j) nv)
                              (poly_mul_t e (det_terms nv n' (map (remove_at j) rest)))
                            ++ go r' (S j))
             end) r O
      end
  end.

(** The [k]-element sublists of [xs], in lexicographic order of positions. *)
Fixpoint subsets (k : nat) (xs : list nat) {struct xs} : list (list nat) :=
  match k, xs with
  | O, _ => [[]]
  | S _, [] => []
  | S k', x :: xs' => map (cons x) (subsets k' xs') ++ subsets k xs'
  end.

(** The entries of [m] in the given rows and columns ([[]] past the end). *)
Definition submatrix (rows cols : list nat) (m : list (list (list ((Z * Z) * list nat))))
  : list (list (list ((Z * Z) * list nat))) :=
  map (fun i => map (fun j => nth j (nth i m []) []) cols) rows.

(** Every [g x g] minor of [m]: row subsets outer, column subsets inner, lexicographic. *)
Definition all_minors (nv g : nat) (m : list (list (list ((Z * Z) * list nat))))
  : list (list ((Z * Z) * list nat)) :=
  let nc := length (nth 0 m []) in
  flat_map (fun rs => map (fun cs => det_terms nv g (submatrix rs cs m)) (subsets g (seq 0 nc)))
           (subsets g (seq 0 (length m))).

(** Coq-only helper of [check_critical_locus]: [M_i = Q_i * P] for every [i], equal lengths. *)
Fixpoint multiples_ok (nv : nat) (p : list ((Z * Z) * list nat))
    (ms qs : list (list ((Z * Z) * list nat))) : bool :=
  match ms, qs with
  | [], [] => true
  | m :: ms', q :: qs' =>
      all_zero_terms (normalize (m ++ terms_scale (const_term (-1, 1) nv) (poly_mul_t q p))) &&
      multiples_ok nv p ms' qs'
  | _, _ => false
  end.

(** Coq-only helper of [check_critical_locus]: [sum_i c_i M_i] as terms, each product
    normalised (to the shorter list). *)
Fixpoint sum_prods (cs ms : list (list ((Z * Z) * list nat))) : list ((Z * Z) * list nat) :=
  match cs, ms with
  | c :: cs', m :: ms' => normalize (poly_mul_t c m) ++ sum_prods cs' ms'
  | _, _ => []
  end.

(** Width 1, [g = min(D + 1, n)] ([n = #params]), [P <> 0], and for the list [M_1 .. M_N]
    of ALL [g x g] minors of the Jacobian [J] of [theta -> (c_0, ..., c_D)] (recomputed from
    the network): [M_i = cofs_i * P] for every [i] and [sum_i bez_i M_i = lam P^k] with
    [lam <> 0], [k >= 1] (exact identities over Q in the parameters); and [P(theta) = value].
    Consequence (elementary algebra, not proved here): at a point of any field of
    characteristic 0, all [M_i] vanish iff [P] does, so [rank J < g] there iff [P = 0]; since
    [lam P^k <> 0] some [M_i <> 0], so the generic rank is [g]. The expensive part runs only
    after the shape checks ([if], since [&&] evaluates both sides under [vm_compute]). *)
Definition check_critical_locus (inst : resnet_instance) (g : nat) (p : list ((Z * Z) * list nat))
    (k : nat) (lam : Z) (cofs bez : list (list ((Z * Z) * list nat))) (value : Z * Z) : bool :=
  let n := length (rn_theta inst) in
  let D := degree_bound (rn_acts inst) in
  if Nat.eqb (rn_width inst) 1 && resnet_shape_ok inst [] && rats_pos (rn_theta inst) &&
     acts_pos (rn_acts inst) && Nat.eqb g (Nat.min (S D) n) && Nat.leb 1 k &&
     negb (Z.eqb lam 0) && exps_ok n p && polys_ok n cofs && polys_ok n bez &&
     (0 <? snd value) && negb (all_zero_terms (normalize p))
  then
    let ms := all_minors n g (jacobian_terms inst) in
    let lhs := sum_prods bez ms in
    let rhs := terms_scale (const_term (- lam, 1) n) (pow_ar (arith_terms n) p k) in
    Nat.eqb (length bez) (length ms) &&
    multiples_ok n p ms cofs &&
    all_zero_terms (normalize (lhs ++ rhs)) &&
    qeq (poly_eval arith_q (term_coeffs p) (term_exps p) (rn_theta inst)) value
  else false.
