(** Library theorems behind the tanh certificates (math.md §4), proved once over the reals for
    an arbitrary activation [rho] with an affine symmetry
    [rho (alpha * z + beta) = gamma * rho z + delta] ([gamma <> 0]):
    - [flip_contribution]: the local step valid at any node of any DAG;
    - [flip_one]: flipping one hidden neuron of a one-hidden-layer network (incoming weights
      and bias [(w, b) -> (alpha w, alpha b + beta)], outgoing weight [c -> c / gamma], output
      bias [- c delta / gamma]) keeps the network function;
    - [permute]: permuting the hidden neurons keeps it;
    - [odd_flip], [logistic_flip]: the two instances (odd rho; rho(-z) = 1 - rho z);
    - [flip_dag_keeps_other_nodes]: for a general feed-forward DAG (nodes in topological
      order, weights on edges, biases on nodes, skip connections allowed, some nodes affine),
      flipping one hidden node [k] (its incoming weights and bias by [alpha, beta], the
      weights leaving it divided by [gamma], every later bias shifted by [- w delta / gamma])
      changes the value of no other node, outputs included.
    Network models: one hidden layer with any number of inputs and one output (a multi-output
    network is one such network per output) for [flip_one] and [permute]; general DAGs for the
    flip. Not formalised: relabelling interchangeable nodes of a DAG (the same graph with new
    node numbers) and the commutation of flips at different nodes, on which the simultaneous
    formula of the kernels' [check_apply] rests. The kernels check only data; these theorems
    say what the data mean. *)
From Coq Require Import Reals Lra Lia List Arith Permutation.
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

(** A node of a DAG in topological order: weights on the earlier nodes (index = node number;
    missing entries are no edge), bias, and whether it applies the activation. *)
Record dnode := mk_dnode { dw : list R; db : R; dh : bool }.

Section Dag.
Variable rho : R -> R.

Definition node_val (n : dnode) (vals : list R) : R :=
  if dh n then rho (dot (dw n) vals + db n) else dot (dw n) vals + db n.

(** Values of all nodes: the inputs, then every node in order. *)
Fixpoint run (ns : list dnode) (vals : list R) : list R :=
  match ns with
  | [] => vals
  | n :: ns' => run ns' (vals ++ [node_val n vals])
  end.

Lemma run_length (ns : list dnode) (vals : list R) :
  length (run ns vals) = (length vals + length ns)%nat.
Proof.
  revert vals; induction ns as [| n ns IH]; intros vals; simpl.
  - lia.
  - rewrite IH, app_length; simpl; lia.
Qed.

Section FlipDag.
Variables alpha beta gamma delta : R.
Hypothesis Hsym : forall z, rho (alpha * z + beta) = gamma * rho z + delta.
Hypothesis Hgamma : gamma <> 0.
Variable k : nat.

(** Apply [f] to entry [k] of a list (unchanged when too short). *)
Fixpoint upd (j : nat) (f : R -> R) (l : list R) : list R :=
  match l, j with
  | [], _ => []
  | x :: l', O => f x :: l'
  | x :: l', S j' => x :: upd j' f l'
  end.

Definition flip_node (n : dnode) : dnode :=
  mk_dnode (map (fun u => alpha * u) (dw n)) (alpha * db n + beta) (dh n).

Definition shift_node (n : dnode) : dnode :=
  mk_dnode (upd k (fun u => u / gamma) (dw n)) (db n - nth k (dw n) 0 * delta / gamma) (dh n).

(** The flip of node [k]: its incoming weights and bias by [alpha, beta], the weights leaving
    it divided by [gamma], every later node's bias shifted by [- w delta / gamma]. [i] is the
    number of the first node of [ns]. *)
Fixpoint flip_dag (i : nat) (ns : list dnode) : list dnode :=
  match ns with
  | [] => []
  | n :: ns' =>
      (if Nat.eqb i k then flip_node n else if Nat.ltb k i then shift_node n else n)
        :: flip_dag (S i) ns'
  end.

(** [vs'] is [vs] with node [k]'s value [h] replaced by [gamma h + delta]. *)
Definition rel (vs vs' : list R) : Prop :=
  length vs = length vs' /\
  (forall i, i <> k -> nth i vs' 0 = nth i vs 0) /\
  ((k < length vs)%nat -> nth k vs' 0 = gamma * nth k vs 0 + delta).

Lemma dot_ext (w vs vs' : list R) :
  length vs = length vs' -> (forall i, nth i vs' 0 = nth i vs 0) -> dot w vs' = dot w vs.
Proof.
  revert vs vs'; induction w as [| u w IH]; intros [| v vs] [| v' vs'] Hl Hn; simpl in *;
    try reflexivity; try discriminate.
  rewrite (IH vs vs'); [| lia | intros i; exact (Hn (S i))].
  rewrite (Hn O). reflexivity.
Qed.

Lemma dot_rel (w vs vs' : list R) (j : nat) :
  length vs = length vs' -> (j < length vs)%nat ->
  (forall i, i <> j -> nth i vs' 0 = nth i vs 0) ->
  nth j vs' 0 = gamma * nth j vs 0 + delta ->
  dot (upd j (fun u => u / gamma) w) vs' = dot w vs + nth j w 0 * delta / gamma.
Proof.
  revert j vs vs'; induction w as [| u w IH]; intros j vs vs' Hl Hj Hn Hk.
  - destruct j; simpl; field; exact Hgamma.
  - destruct vs as [| v vs]; [simpl in Hj; lia |].
    destruct vs' as [| v' vs']; [discriminate |].
    destruct j as [| j]; simpl in *.
    + rewrite Hk. rewrite (dot_ext w vs vs'); [field; exact Hgamma | lia |].
      intros i. exact (Hn (S i) ltac:(discriminate)).
    + rewrite (Hn O ltac:(discriminate)).
      rewrite (IH j vs vs'); [ring | lia | lia | | exact Hk].
      intros i Hi. apply (Hn (S i)). intros E. apply Hi. injection E. auto.
Qed.

Lemma nth_snoc (vs : list R) (x : R) (i : nat) :
  nth i (vs ++ [x]) 0 =
  if Nat.ltb i (length vs) then nth i vs 0 else if Nat.eqb i (length vs) then x else 0.
Proof.
  destruct (Nat.ltb_spec i (length vs)) as [H | H].
  - apply app_nth1; exact H.
  - rewrite app_nth2 by exact H.
    destruct (Nat.eqb_spec i (length vs)) as [E | E].
    + subst i. rewrite Nat.sub_diag. reflexivity.
    + destruct (i - length vs)%nat eqn:D; [lia |]. simpl. destruct n; reflexivity.
Qed.

Lemma rel_snoc (vs vs' : list R) (x : R) :
  (k < length vs)%nat -> rel vs vs' -> rel (vs ++ [x]) (vs' ++ [x]).
Proof.
  intros Hk [Hl [Hn Hkv]]. split; [rewrite !app_length; simpl; lia |]. split.
  - intros i Hi. rewrite !nth_snoc, <- Hl.
    destruct (Nat.ltb i (length vs)); [apply Hn; exact Hi | reflexivity].
  - intros _. rewrite !nth_snoc, <- Hl.
    destruct (Nat.ltb_spec k (length vs)); [apply Hkv; lia | lia].
Qed.

Lemma run_after (ns : list dnode) (vals vals' : list R) :
  (k < length vals)%nat -> rel vals vals' ->
  rel (run ns vals) (run (flip_dag (length vals) ns) vals').
Proof.
  revert vals vals'; induction ns as [| n ns IH]; intros vals vals' Hk Hr; simpl; [exact Hr |].
  destruct (Nat.eqb_spec (length vals) k) as [E | _]; [lia |].
  destruct (Nat.ltb_spec k (length vals)) as [_ | C]; [| lia].
  assert (Hv : node_val (shift_node n) vals' = node_val n vals).
  { destruct Hr as [Hl [Hn Hkv]]. unfold node_val, shift_node; simpl.
    rewrite (dot_rel (dw n) vals vals' k Hl Hk (fun i Hi => Hn i Hi) (Hkv Hk)).
    replace (dot (dw n) vals + nth k (dw n) 0 * delta / gamma +
             (db n - nth k (dw n) 0 * delta / gamma)) with (dot (dw n) vals + db n) by ring.
    reflexivity. }
  rewrite Hv.
  replace (S (length vals)) with (length (vals ++ [node_val n vals]))
    by (rewrite app_length; simpl; lia).
  apply IH; [rewrite app_length; simpl; lia |]. apply rel_snoc; assumption.
Qed.

Lemma run_before (ns : list dnode) (vals : list R) :
  (length vals <= k)%nat -> (forall n, nth_error ns (k - length vals) = Some n -> dh n = true) ->
  rel (run ns vals) (run (flip_dag (length vals) ns) vals).
Proof.
  revert vals; induction ns as [| n ns IH]; intros vals Hk Hh; simpl.
  - split; [reflexivity |]. split; [reflexivity |]. intros; lia.
  - destruct (Nat.eqb_spec (length vals) k) as [E | NE].
    + (* the flipped node itself *)
      assert (Hd : dh n = true) by (apply Hh; rewrite E, Nat.sub_diag; reflexivity).
      assert (Hv : node_val (flip_node n) vals = gamma * node_val n vals + delta).
      { unfold node_val, flip_node; simpl. rewrite Hd.
        replace (dot (map (fun u => alpha * u) (dw n)) vals + (alpha * db n + beta))
          with (alpha * (dot (dw n) vals + db n) + beta).
        - apply Hsym.
        - assert (D : forall w, dot (map (fun u => alpha * u) w) vals = alpha * dot w vals).
          { intros w. generalize vals. induction w as [| u w IHw]; intros [| v vs]; simpl;
              try ring. rewrite IHw. ring. }
          rewrite D. ring. }
      rewrite Hv.
      replace (S (length vals)) with (length (vals ++ [node_val n vals]))
        by (rewrite app_length; simpl; lia).
      apply run_after; [rewrite app_length; simpl; lia |].
      split; [rewrite !app_length; reflexivity |]. split.
      * intros i Hi. rewrite !nth_snoc. destruct (Nat.ltb i (length vals)); [reflexivity |].
        destruct (Nat.eqb_spec i (length vals)); [lia | reflexivity].
      * intros _. rewrite !nth_snoc, E, Nat.ltb_irrefl, Nat.eqb_refl. reflexivity.
    + destruct (Nat.ltb_spec k (length vals)) as [C | _]; [lia |].
      replace (S (length vals)) with (length (vals ++ [node_val n vals]))
        by (rewrite app_length; simpl; lia).
      apply IH; [rewrite app_length; simpl; lia |].
      intros m Hm. apply Hh. rewrite app_length in Hm; simpl in Hm.
      replace (k - length vals)%nat with (S (k - (length vals + 1))) by lia. exact Hm.
Qed.

(** Flipping a hidden node [k] of a DAG (with the weight and bias adjustments of its
    successors) changes no other node's value, outputs included. *)
Theorem flip_dag_keeps_other_nodes (ns : list dnode) (x : list R) (n : dnode) :
  (length x <= k)%nat -> nth_error ns (k - length x) = Some n -> dh n = true ->
  forall j, j <> k -> nth j (run (flip_dag (length x) ns) x) 0 = nth j (run ns x) 0.
Proof.
  intros Hk Hn Hd j Hj.
  destruct (run_before ns x Hk) as [_ [H _]].
  - intros m Hm. rewrite Hn in Hm. injection Hm as <-. exact Hd.
  - apply H. exact Hj.
Qed.
End FlipDag.
End Dag.

(** Flipping several hidden nodes one after the other. *)
Fixpoint flip_all (rho : R -> R) (alpha beta gamma delta : R) (ks : list nat) (m : nat)
  (ns : list dnode) : list dnode :=
  match ks with
  | [] => ns
  | k :: ks' => flip_all rho alpha beta gamma delta ks' m (flip_dag alpha beta gamma delta k m ns)
  end.

Lemma flip_dag_hidden (alpha beta gamma delta : R) (k m : nat) (ns : list dnode) (j : nat) :
  forall n, nth_error ns j = Some n ->
  exists n', nth_error (flip_dag alpha beta gamma delta k m ns) j = Some n' /\ dh n' = dh n.
Proof.
  revert m j; induction ns as [| a ns IH]; intros m j n H; [destruct j; discriminate |].
  destruct j as [| j]; simpl in *.
  - injection H as <-. eexists; split; [reflexivity |].
    destruct (Nat.eqb m k); [reflexivity |]. destruct (Nat.ltb k m); reflexivity.
  - exact (IH (S m) j n H).
Qed.

(** Any sequence of flips of hidden nodes, each by the symmetry, keeps every node that is not
    flipped, outputs included. *)
Theorem flip_all_keeps_other_nodes (rho : R -> R) (alpha beta gamma delta : R)
  (Hsym : forall z, rho (alpha * z + beta) = gamma * rho z + delta) (Hgamma : gamma <> 0)
  (ks : list nat) (ns : list dnode) (x : list R) :
  (forall k, In k ks -> (length x <= k)%nat /\
     exists n, nth_error ns (k - length x) = Some n /\ dh n = true) ->
  forall j, ~ In j ks ->
  nth j (run rho (flip_all rho alpha beta gamma delta ks (length x) ns) x) 0 =
  nth j (run rho ns x) 0.
Proof.
  revert ns; induction ks as [| k ks IH]; intros ns Hks j Hj; simpl; [reflexivity |].
  destruct (Hks k (or_introl eq_refl)) as [Hk [n [Hn Hd]]].
  rewrite IH.
  - apply (flip_dag_keeps_other_nodes rho alpha beta gamma delta Hsym Hgamma k ns x n Hk Hn Hd).
    intros E. apply Hj. left. symmetry. exact E.
  - intros k' Hk'. destruct (Hks k' (or_intror Hk')) as [Hle [n' [Hn' Hd']]].
    split; [exact Hle |].
    destruct (flip_dag_hidden alpha beta gamma delta k (length x) ns _ n' Hn') as [m [Hm Hdm]].
    exists m. split; [exact Hm | rewrite Hdm; exact Hd'].
  - intros Hin. apply Hj. right. exact Hin.
Qed.
