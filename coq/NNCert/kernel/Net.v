(** Polynomial MLPs evaluated in forward mode (dual numbers), generic in the arithmetic.
    Python twin: certify/checker/kernel/net.py; Lean twin:
    lean/NNCert/Net.lean.
    A network is [(widths, acts, bias, theta)]: [theta] is flat, layer by layer, neuron by
    neuron, the incoming weights then the bias; [acts] has one coefficient list (constant
    term first) per hidden layer; the last layer is linear. *)
From Coq Require Import ZArith List Bool.
From NNCert Require Import Lists Arith.
Import ListNotations.

Section Generic.
Context {A : Type} (ar : arith A).

(** [sum_i ws[i] * xs[i]] over the shorter length. *)
Fixpoint dot (ws xs : list A) : A :=
  match ws, xs with
  | w :: ws', x :: xs' => add ar (mul ar w x) (dot ws' xs')
  | _, _ => zero ar
  end.

(** [(sigma(a), sigma'(a) * da)] for [sigma = sum_k cs[k] t^k]: Horner on [a + da eps]. *)
Fixpoint horner_dual (cs : list A) (a da : A) : A * A :=
  match cs with
  | [] => (zero ar, zero ar)
  | c :: cs' =>
      let '(s, ds) := horner_dual cs' a da in
      (add ar c (mul ar a s), add ar (mul ar a ds) (mul ar da s))
  end.

(** The activation applied to every dual number [(hs[i], dhs[i])]. *)
Fixpoint act_dual (cs : list A) (hs dhs : list A) : list A * list A :=
  match hs, dhs with
  | h :: hs', dh :: dhs' =>
      let '(v, dv) := horner_dual cs h dh in
      let '(vs, dvs) := act_dual cs hs' dhs' in
      (v :: vs, dv :: dvs)
  | _, _ => ([], [])
  end.

(** Pre-activations (and tangents) of [nrows] neurons; each consumes [rowlen] parameters. *)
Fixpoint layer_dual (rowlen nrows : nat) (th dth hb dhb : list A) : list A * list A :=
  match nrows with
  | O => ([], [])
  | S k =>
      let w := take_n rowlen th in
      let dw := take_n rowlen dth in
      let '(vs, dvs) := layer_dual rowlen k (drop_n rowlen th) (drop_n rowlen dth) hb dhb in
      (dot w hb :: vs, add ar (dot dw hb) (dot w dhb) :: dvs)
  end.

(** [h], followed by the constant [v] when the network has biases. *)
Definition with_bias (bias : bool) (h : list A) (v : A) : list A :=
  if bias then h ++ [v] else h.

(** Forward mode through the layers of widths [rest]; the previous width is [prev]. *)
Fixpoint net_dual (bias : bool) (prev : nat) (rest : list nat) (acts : list (list A))
    (th dth h dh : list A) : list A * list A :=
  match rest with
  | [] => (h, dh)
  | d :: rest' =>
      let rowlen := (prev + (if bias then 1 else 0))%nat in
      let '(pre, dpre) :=
        layer_dual rowlen d th dth (with_bias bias h (one ar)) (with_bias bias dh (zero ar)) in
      match rest' with
      | [] => (pre, dpre)
      | _ :: _ =>
          let '(h', dh') := act_dual (hd [] acts) pre dpre in
          net_dual bias d rest' (tl acts) (drop_n (d * rowlen) th) (drop_n (d * rowlen) dth)
            h' dh'
      end
  end.

(** [(f_theta(x), d/dt f_(theta + t dth)(x + t dx) at t = 0)]. *)
Definition net_eval (widths : list nat) (acts : list (list A)) (bias : bool)
    (th dth x dx : list A) : list A * list A :=
  match widths with
  | [] => ([], [])
  | d0 :: rest => net_dual bias d0 rest acts th dth x dx
  end.

(** * Reverse mode (one pass per Jacobian row) *)

(** The values [w_i . hb] of [nrows] neurons, each consuming [rowlen] parameters. *)
Fixpoint layer_vals (rowlen nrows : nat) (th hb : list A) : list A :=
  match nrows with
  | O => []
  | S k => dot (take_n rowlen th) hb :: layer_vals rowlen k (drop_n rowlen th) hb
  end.

(** [z * r + acc] entrywise, to the shorter length. *)
Fixpoint add_scaled_row (z : A) (r acc : list A) : list A :=
  match r, acc with
  | x :: r', y :: acc' => add ar (mul ar z x) y :: add_scaled_row z r' acc'
  | _, _ => []
  end.

(** [acc + sum_i g[i] * (row i of th)], rows of [rowlen] parameters: [W^T g] (the bias
    column last when the layer has biases). *)
Fixpoint back_rows (rowlen : nat) (g th acc : list A) : list A :=
  match g with
  | [] => acc
  | gi :: g' => back_rows rowlen g' (drop_n rowlen th) (add_scaled_row gi (take_n rowlen th) acc)
  end.

(** [g[i] * hb] for every neuron [i], flat: the gradient of one layer's weights (and biases)
    when [g] is the gradient of its pre-activations and [hb] its input. *)
Fixpoint scale_each (g hb : list A) : list A :=
  match g with
  | [] => []
  | gi :: g' => map (fun v => mul ar gi v) hb ++ scale_each g' hb
  end.

(** [xs[i] * ys[i]] entrywise, to the shorter length. *)
Fixpoint hadamard (xs ys : list A) : list A :=
  match xs, ys with
  | x :: xs', y :: ys' => mul ar x y :: hadamard xs' ys'
  | _, _ => []
  end.

(** [(sigma(h), sigma'(h))] for every [h] of [hs]: Horner on the dual number [h + 1 eps]. *)
Definition act_vd (cs hs : list A) : list A * list A :=
  act_dual cs hs (map (fun _ => one ar) hs).

(** [(d f_k / d theta] for the layers of widths [rest], [d f_k / d h)] by reverse mode: one
    forward value per layer, the gradient pulled back through [sigma'] and [W^T]. *)
Fixpoint net_back (bias : bool) (prev : nat) (rest : list nat) (acts : list (list A))
    (th h : list A) (k : nat) : list A * list A :=
  match rest with
  | [] => ([], [])
  | d :: rest' =>
      let rowlen := (prev + (if bias then 1 else 0))%nat in
      let hb := with_bias bias h (one ar) in
      match rest' with
      | [] =>
          let g := unit_vec ar d k in
          (scale_each g hb, take_n prev (back_rows rowlen g th (zeros ar rowlen)))
      | _ :: _ =>
          let '(v, dv) := act_vd (hd [] acts) (layer_vals rowlen d th hb) in
          let '(grest, gh) := net_back bias d rest' (tl acts) (drop_n (d * rowlen) th) v k in
          let g := hadamard dv gh in
          (scale_each g hb ++ grest, take_n prev (back_rows rowlen g th (zeros ar rowlen)))
      end
  end.

(** The Jacobian row [d f_theta(x)[k] / d theta] (length #params), one reverse pass. *)
Definition net_row (widths : list nat) (acts : list (list A)) (bias : bool) (th x : list A)
    (k : nat) : list A :=
  match widths with
  | [] => []
  | d0 :: rest => fst (net_back bias d0 rest acts th x k)
  end.

End Generic.

(** Number of parameters of the layers [rest] after a layer of width [prev]. *)
Fixpoint n_params_from (prev : nat) (rest : list nat) (b : nat) : nat :=
  match rest with
  | [] => O
  | d :: rest' => (d * (prev + b) + n_params_from d rest' b)%nat
  end.

(** [#params = sum_l d_l (d_(l-1) + b)]. *)
Definition n_params (widths : list nat) (bias : bool) : nat :=
  match widths with
  | [] => O
  | d0 :: rest => n_params_from d0 rest (if bias then 1 else 0)
  end.

(** The output width [d_L] (0 for no widths). *)
Fixpoint last_width (widths : list nat) : nat :=
  match widths with
  | [] => O
  | [d] => d
  | _ :: ws => last_width ws
  end.

(** The input width [d_0]. *)
Definition first_width (widths : list nat) : nat :=
  match widths with
  | [] => O
  | d :: _ => d
  end.

(** Product of [length - 1] of the coefficient lists: bounds the degree of [f] in [x]. *)
Fixpoint degree_bound {B : Type} (acts : list (list B)) : nat :=
  match acts with
  | [] => 1%nat
  | cs :: acts' => ((length cs - 1) * degree_bound acts')%nat
  end.

(** Every activation has at least two coefficients. *)
Fixpoint acts_nonconst {B : Type} (acts : list (list B)) : bool :=
  match acts with
  | [] => true
  | cs :: acts' => Nat.leb 2 (length cs) && acts_nonconst acts'
  end.

(** The instance is well formed: at least one layer, positive widths, one activation per
    hidden layer, the right number of parameters, samples of the input width. *)
Definition shape_ok (widths : list nat) (acts : list (list (Z * Z))) (bias : bool)
    (th : list (Z * Z)) (samples : list (list Z)) : bool :=
  Nat.leb 2 (length widths) && all_pos widths &&
  Nat.eqb (length acts + 2) (length widths) && acts_nonconst acts &&
  Nat.eqb (length th) (n_params widths bias) &&
  rows_len (first_width widths) samples.
