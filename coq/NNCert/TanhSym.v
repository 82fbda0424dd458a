(** Library theorems behind the tanh certificates (math.md §4), proved once over the reals for
    an arbitrary activation [rho] with an affine symmetry
    [rho (alpha * z + beta) = gamma * rho z + delta] ([gamma <> 0]):
    - [flip_contribution]: the local step valid at any node of any DAG;
    - [flip_one]: flipping one hidden neuron of a one-hidden-layer network (incoming weights
      and bias [(w, b) -> (alpha w, alpha b + beta)], outgoing weight [c -> c / gamma], output
      bias [- c delta / gamma]) keeps the network function;
    - [permute]: permuting the hidden neurons keeps it;
    - [odd_flip], [logistic_flip]: the two instances (odd rho; rho(-z) = 1 - rho z).
    Network model: one hidden layer, any number of inputs, one output (a multi-output network
    is one such network per output, sharing the hidden neurons). The kernels check only data;
    these theorems say what the data mean. *)
From Coq Require Import Reals Lra List Permutation.
Import ListNotations.
Open Scope R_scope.

(** [a . x], to the shorter length. *)
Fixpoint dot (a x : list R) : R :=
  match a, x with
  | u :: a', v :: x' => u * v + dot a' x'
  | _, _ => 0
  end.

(** A hidden neuron: incoming weights, bias, outgoing weight. *)
Record neuron := mk_neuron { win : list R; bias : R; wout : R }.

Section Network.
Variable rho : R -> R.

(** The neuron's contribution [c * rho (w . x + b)] to the output. *)
Definition contrib (x : list R) (n : neuron) : R := wout n * rho (dot (win n) x + bias n).

(** The network function: output bias plus the sum of the contributions. *)
Definition net (ns : list neuron) (c0 : R) (x : list R) : R :=
  c0 + fold_right (fun n acc => contrib x n + acc) 0 ns.

Lemma sum_app (xs ys : list neuron) (x : list R) :
  fold_right (fun n acc => contrib x n + acc) 0 (xs ++ ys) =
  fold_right (fun n acc => contrib x n + acc) 0 xs +
  fold_right (fun n acc => contrib x n + acc) 0 ys.
Proof. induction xs as [| n xs IH]; simpl; [ring | rewrite IH; ring]. Qed.

(** Permuting the hidden neurons keeps the function. *)
Theorem permute (ns ns' : list neuron) (c0 : R) (x : list R) :
  Permutation ns ns' -> net ns c0 x = net ns' c0 x.
Proof.
  intros HP. unfold net. f_equal.
  induction HP; simpl; lra.
Qed.

Section Flip.
Variables alpha beta gamma delta : R.
Hypothesis Hsym : forall z, rho (alpha * z + beta) = gamma * rho z + delta.
Hypothesis Hgamma : gamma <> 0.

(** The local step: a node with pre-activation [z] sending weight [w] onward contributes
    [w rho z]; after its flip it contributes [(w / gamma) rho (alpha z + beta)], and the
    successor's bias absorbs [- w delta / gamma]. Valid at every node of every DAG. *)
Lemma flip_contribution (w z : R) :
  w * rho z = (w / gamma) * rho (alpha * z + beta) - w * delta / gamma.
Proof. rewrite Hsym. field. exact Hgamma. Qed.

(** The flipped neuron. *)
Definition flip (n : neuron) : neuron :=
  mk_neuron (map (fun u => alpha * u) (win n)) (alpha * bias n + beta) (wout n / gamma).

(** The output-bias shift of a flip. *)
Definition shift (n : neuron) : R := - (wout n * delta / gamma).

Lemma dot_scale (a x : list R) : dot (map (fun u => alpha * u) a) x = alpha * dot a x.
Proof.
  revert x. induction a as [| u a IH]; intros [| v x]; simpl; try ring.
  rewrite IH. ring.
Qed.

Lemma contrib_flip (x : list R) (n : neuron) :
  contrib x (flip n) = contrib x n - shift n.
Proof.
  unfold contrib, flip, shift; simpl. rewrite dot_scale.
  replace (alpha * dot (win n) x + (alpha * bias n + beta))
    with (alpha * (dot (win n) x + bias n) + beta) by ring.
  rewrite (flip_contribution (wout n) (dot (win n) x + bias n)). ring.
Qed.

(** Flipping one hidden neuron, with the output bias shifted, keeps the function. *)
Theorem flip_one (pre post : list neuron) (n : neuron) (c0 : R) (x : list R) :
  net (pre ++ flip n :: post) (c0 + shift n) x = net (pre ++ n :: post) c0 x.
Proof.
  unfold net. rewrite !sum_app. simpl. rewrite contrib_flip. ring.
Qed.
End Flip.
End Network.

(** Odd activations (tanh, arctan, erf, softsign): flip [(w, b, c) -> (-w, -b, -c)]. *)
Corollary odd_flip (rho : R -> R) (Hodd : forall z, rho (- z) = - rho z)
  (pre post : list neuron) (n : neuron) (c0 : R) (x : list R) :
  net rho (pre ++ flip (-1) 0 (-1) n :: post) (c0 + shift (-1) 0 n) x =
  net rho (pre ++ n :: post) c0 x.
Proof.
  apply flip_one; [| lra].
  intros z. replace (-1 * z + 0) with (- z) by ring. rewrite Hodd. ring.
Qed.

(** [rho (-z) = 1 - rho z] (the logistic): flip, negate the outgoing weight, and add it to
    the output bias ([shift (-1) 1 n = wout n]). *)
Corollary logistic_flip (rho : R -> R) (Hlog : forall z, rho (- z) = 1 - rho z)
  (pre post : list neuron) (n : neuron) (c0 : R) (x : list R) :
  net rho (pre ++ flip (-1) 0 (-1) n :: post) (c0 + wout n) x =
  net rho (pre ++ n :: post) c0 x.
Proof.
  replace (c0 + wout n) with (c0 + shift (-1) 1 n) by (unfold shift; field).
  apply flip_one; [| lra].
  intros z. replace (-1 * z + 0) with (- z) by ring. rewrite Hlog. ring.
Qed.
