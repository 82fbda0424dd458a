(** Constant-width ResNets [x -> x + sigma_l(W_l x + b_l)] (or [x + V_l sigma_l(...)] when
    [outer]) in forward mode, and the rank checks on them (math.md §2).
    Python twin: certify/checker/kernel_resnet.py; Lean twin: lean/NNCert/ResNet.lean.
    Layout of the parameters per layer: [W_l] row by row, each row's bias after it, then [V_l] row by
    row when [outer]. *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net Rank.
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

End Generic.

(** The instance is well formed for the given samples. *)
Definition resnet_shape_ok (inst : resnet_instance) (samples : list (list Z)) : bool :=
  Nat.leb 1 (rn_width inst) && Nat.leb 1 (length (rn_acts inst)) &&
  acts_nonconst (rn_acts inst) &&
  Nat.eqb (length (rn_theta inst)) (resnet_params (rn_width inst) (rn_acts inst) (rn_outer inst)) &&
  rows_len (rn_width inst) samples.

(** [d F_theta(x_s)[k] / d theta_c mod p] for [row = (s, k)]: one forward-mode pass. *)
Definition jac_entry_resnet (p : Z) (n : nat) (outer : bool) (acts_m : list (list int))
    (th_m : list int) (samples : list (list Z)) (row : nat * nat) (c : nat) : Z :=
  let ar := arith_mod (Uint63.of_Z p) in
  let x := ints_mod p (nth_row samples (fst row)) in
  let out := resnet_dual ar n outer acts_m th_m (unit_vec ar (length th_m) c) x
               (zeros ar (length x)) in
  Uint63.to_Z (nth_int (snd out) (snd row)).

(** The minor [J[rows, cols] mod p] of the sample Jacobian. *)
Definition jac_minor_resnet (p : Z) (n : nat) (outer : bool) (acts_m : list (list int))
    (th_m : list int) (samples : list (list Z)) (rows : list (nat * nat)) (cols : list nat)
    : list (list Z) :=
  map (fun r => map (fun c => jac_entry_resnet p n outer acts_m th_m samples r c) cols) rows.

(** rank of the Jacobian of [theta -> (F_theta(x_s))_s] at [theta] is [>= r] over Q. *)
Definition check_rank_lower_resnet (inst : resnet_instance) (w : lower_witness) (r : nat)
  : bool :=
  let p := lw_p w in
  resnet_shape_ok inst (lw_samples w) &&
  p_ok p &&
  rats_inv_ok p (rn_theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (rn_acts inst) (lw_acts_inv w) &&
  Nat.eqb (length (lw_rows w)) r &&
  Nat.eqb (length (lw_cols w)) r &&
  rows_in_range (length (lw_samples w)) (rn_width inst) (lw_rows w) &&
  all_lt (length (rn_theta inst)) (lw_cols w) &&
  check_inverse p r
    (jac_minor_resnet p (rn_width inst) (rn_outer inst)
       (acts_mod p (rn_acts inst) (lw_acts_inv w)) (rats_mod p (rn_theta inst) (lw_theta_inv w))
       (lw_samples w) (lw_rows w) (lw_cols w))
    (lw_inv w).

(** [d/ds F_(theta + s t)(x) = 0] exactly (over Q) at every [x] in [pts]. *)
Fixpoint tangent_vanishes_resnet (inst : resnet_instance) (pts : list (list Z)) (t : list Z)
  : bool :=
  match pts with
  | [] => true
  | x :: pts' =>
      all_zero_q (snd (resnet_dual arith_q (rn_width inst) (rn_outer inst) (rn_acts inst)
                         (rn_theta inst) (ints_q t) (ints_q x) (zeros arith_q (rn_width inst)))) &&
      tangent_vanishes_resnet inst pts' t
  end.

(** [tangent_vanishes_resnet] for every tangent. *)
Fixpoint tangents_vanish_resnet (inst : resnet_instance) (pts : list (list Z))
    (ts : list (list Z)) : bool :=
  match ts with
  | [] => true
  | t :: ts' => tangent_vanishes_resnet inst pts t && tangents_vanish_resnet inst pts ts'
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
  p_ok (uw_p w) &&
  Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) &&
  tangents_vanish_resnet inst (lattice (rn_width inst) (degree_bound (rn_acts inst)))
    (uw_tangents w) &&
  Nat.eqb (length (uw_cols w)) s &&
  all_lt n (uw_cols w) &&
  check_inverse (uw_p w) s (col_minor (uw_tangents w) (uw_cols w)) (uw_inv w).

(** * Orbits (math.md §2). Python twin: the "orbits" section of kernel_resnet.py. *)

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

(** Equal lengths and equal entries as rationals (cross-multiplication). *)
Fixpoint qeq_all (a b : list (Z * Z)) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Z.eqb (fst x * snd y) (fst y * snd x) && qeq_all a' b'
  | _, _ => false
  end.

(** [F_theta(x) = F_theta2(x)] exactly at every [x] in [pts]. *)
Fixpoint same_function (inst : resnet_instance) (th2 : list (Z * Z)) (pts : list (list Z))
  : bool :=
  match pts with
  | [] => true
  | x :: pts' =>
      let z := zeros arith_q (length (rn_theta inst)) in
      let zx := zeros arith_q (rn_width inst) in
      qeq_all
        (fst (resnet_dual arith_q (rn_width inst) (rn_outer inst) (rn_acts inst) (rn_theta inst)
                z (ints_q x) zx))
        (fst (resnet_dual arith_q (rn_width inst) (rn_outer inst) (rn_acts inst) th2 z
                (ints_q x) zx)) &&
      same_function inst th2 pts'
  end.

(** [th2] is the flip of [neuron] in [layer] at [t0] applied to theta, and realises the same
    function (on the unisolvent lattice of degree [prod deg sigma_l], hence everywhere). *)
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
  same_function inst th2 (lattice (rn_width inst) (degree_bound (rn_acts inst))).
