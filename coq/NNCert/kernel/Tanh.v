(** Data checks of the tanh certificates (math.md §4): affine-symmetry tables of an activation,
    and the group acting on DAG networks (flips by an affine symmetry, permutations of
    interchangeable hidden nodes): applying a group element, classes, freeness, canonical form,
    genericity conditions.
    Python twin: certify/checker/kernel/tanh.py; Lean twin: lean/NNCert/Tanh.lean.
    A network is dense over its N nodes (inputs, hidden, outputs): [ti_adj] row q, column p is
    1 iff there is an edge p -> q; rationals are unnormalised pairs (num, den). That a checked
    group element keeps the network function is the theorem of TanhSym.v. *)
From Coq Require Import ZArith List Bool.
From NNCert Require Import Lists Arith Net Compind.
Import ListNotations.
Open Scope Z_scope.

(** An affine symmetry [rho (alpha z + beta) = gamma rho z + delta] of the activation. *)
Record aff_sym := { alpha : Z * Z; beta : Z * Z; gamma : Z * Z; delta : Z * Z }.

(** A DAG network with [ti_n_in] inputs and [ti_n_out] outputs. *)
Record tanh_instance := {
  ti_n_in : nat;
  ti_n_out : nat;
  ti_adj : list (list Z);
  ti_weights : list (list (Z * Z));
  ti_biases : list (Z * Z) }.

(* ---------------------------------------------------------------- rationals *)
Definition rat_lt (a b : Z * Z) : bool := Z.ltb (fst a * snd b) (fst b * snd a).
(** [a / b], with a positive denominator when [a]'s is positive. *)
Definition rat_div (a b : Z * Z) : Z * Z :=
  if Z.ltb (fst b) 0 then (- (fst a * snd b), - (snd a * fst b))
  else (fst a * snd b, snd a * fst b).
Definition rat_pos_den (a : Z * Z) : bool := Z.ltb 0 (snd a).

(* ---------------------------------------------------------------- affine symmetries *)
Definition aff_ok (s : aff_sym) : bool :=
  rat_pos_den (alpha s) && rat_pos_den (beta s) && rat_pos_den (gamma s) &&
  rat_pos_den (delta s) && nonzero_q (alpha s) && nonzero_q (gamma s).

(** [g o h]. *)
Definition aff_compose (g h : aff_sym) : aff_sym :=
  {| alpha := qmul (alpha g) (alpha h);
     beta := qadd (qmul (alpha g) (beta h)) (beta g);
     gamma := qmul (gamma g) (gamma h);
     delta := qadd (qmul (gamma g) (delta h)) (delta g) |}.

Definition aff_eq (g h : aff_sym) : bool :=
  qeq (alpha g) (alpha h) && qeq (beta g) (beta h) && qeq (gamma g) (gamma h) &&
  qeq (delta g) (delta h).

Fixpoint aff_mem (g : aff_sym) (table : list aff_sym) : bool :=
  match table with
  | [] => false
  | h :: t => aff_eq g h || aff_mem g t
  end.

Fixpoint all_aff_ok (table : list aff_sym) : bool :=
  match table with
  | [] => true
  | g :: t => aff_ok g && all_aff_ok t
  end.

(** No element of the table equals a later one. *)
Fixpoint aff_nodup (table : list aff_sym) : bool :=
  match table with
  | [] => true
  | g :: t => negb (aff_mem g t) && aff_nodup t
  end.

Fixpoint compose_all_mem (g : aff_sym) (hs table : list aff_sym) : bool :=
  match hs with
  | [] => true
  | h :: hs' => aff_mem (aff_compose g h) table && compose_all_mem g hs' table
  end.

Fixpoint table_closed (gs table : list aff_sym) : bool :=
  match gs with
  | [] => true
  | g :: gs' => compose_all_mem g table table && table_closed gs' table
  end.

(** Well formed; when [closed], the identity is listed and the table is closed under
    composition (so it is a group). *)
Definition check_affsym_table (table : list aff_sym) (closed : bool) : bool :=
  all_aff_ok table && aff_nodup table &&
  (negb closed ||
   (aff_mem {| alpha := (1, 1); beta := (0, 1); gamma := (1, 1); delta := (0, 1) |} table &&
    table_closed table table)).

(* ---------------------------------------------------------------- well-formed networks *)
(** Row [q] from column [p] on: 0/1 entries, edges only from earlier input/hidden nodes into
    hidden/output nodes, zero weight without an edge, positive denominators. *)
Fixpoint row_ok (q n_in n_src : nat) (arow : list Z) (wrow : list (Z * Z)) (p : nat) : bool :=
  match arow, wrow with
  | [], [] => true
  | a :: arow', w :: wrow' =>
      (Z.eqb a 0 || (Z.eqb a 1 && Nat.leb n_in q && Nat.ltb p q && Nat.ltb p n_src)) &&
      rat_pos_den w && (Z.eqb a 1 || Z.eqb (fst w) 0) &&
      row_ok q n_in n_src arow' wrow' (S p)
  | _, _ => false
  end.

Fixpoint rows_ok (q n_in n_src size : nat) (adj : list (list Z)) (ws : list (list (Z * Z)))
  : bool :=
  match adj, ws with
  | [], [] => true
  | a :: adj', w :: ws' =>
      Nat.eqb (length a) size && Nat.eqb (length w) size && row_ok q n_in n_src a w 0 &&
      rows_ok (S q) n_in n_src size adj' ws'
  | _, _ => false
  end.

Definition well_formed (inst : tanh_instance) : bool :=
  let size := length (ti_biases inst) in
  Nat.leb (ti_n_in inst + ti_n_out inst) size && Nat.eqb (length (ti_adj inst)) size &&
  rats_pos (ti_biases inst) &&
  rows_ok 0 (ti_n_in inst) (size - ti_n_out inst) size (ti_adj inst) (ti_weights inst).

(* ---------------------------------------------------------------- permutations *)
(** From node [v] on: inputs and outputs are fixed and not flipped; equal lengths. *)
Fixpoint fixes_io (v n_in n_hid_end : nat) (perm : list nat) (flips : list bool) : bool :=
  match perm, flips with
  | [], [] => true
  | pv :: perm', f :: flips' =>
      ((Nat.leb n_in v && Nat.ltb v n_hid_end) || (Nat.eqb pv v && negb f)) &&
      fixes_io (S v) n_in n_hid_end perm' flips'
  | _, _ => false
  end.

(** [perm] maps every node of [vs] into the class [c]. *)
Fixpoint class_stable (perm c vs : list nat) : bool :=
  match vs with
  | [] => true
  | v :: vs' => mem_nat (nth_nat perm v) c && class_stable perm c vs'
  end.

(** [perm] maps every class of [cs] into (so, being injective, onto) itself. *)
Fixpoint perm_in_classes (perm : list nat) (cs : list (list nat)) : bool :=
  match cs with
  | [] => true
  | c :: cs' => class_stable perm c c && perm_in_classes perm cs'
  end.

(** A group element for the classes [cs] (that [cs] are the classes of [inst] is the caller's
    [check_classes]). *)
Definition element_ok (inst : tanh_instance) (cs : list (list nat)) (flips : list bool)
  (perm : list nat) : bool :=
  let size := length (ti_biases inst) in
  Nat.eqb (length perm) size && all_lt size perm && nodup_nat perm &&
  fixes_io 0 (ti_n_in inst) (size - ti_n_out inst) perm flips &&
  perm_in_classes perm cs.

(* ---------------------------------------------------------------- the action *)
(** Sum over flipped predecessors of [w delta / gamma]. *)
Fixpoint bias_shift (s : aff_sym) (wrow : list (Z * Z)) (flips : list bool) : Z * Z :=
  match wrow, flips with
  | w :: wrow', f :: flips' =>
      if f then qadd (rat_div (qmul w (delta s)) (gamma s)) (bias_shift s wrow' flips')
      else bias_shift s wrow' flips'
  | _, _ => (0, 1)
  end.

Definition new_weight (s : aff_sym) (fq fp : bool) (w : Z * Z) : Z * Z :=
  let w1 := if fp then rat_div w (gamma s) else w in
  if fq then qmul (alpha s) w1 else w1.

Definition new_bias (s : aff_sym) (fq : bool) (b shift : Z * Z) : Z * Z :=
  let b1 := qadd b (qneg shift) in
  if fq then qadd (qmul (alpha s) b1) (beta s) else b1.

(** Row [q] of the image: [adj2[pi q][pi p] = adj[q][p]], [W2[pi q][pi p] = new_weight]. *)
Fixpoint row_maps (s : aff_sym) (fq : bool) (arow : list Z) (wrow : list (Z * Z))
  (flips : list bool) (perm : list nat) (arow2 : list Z) (wrow2 : list (Z * Z)) : bool :=
  match arow, wrow, flips, perm with
  | [], [], [], [] => true
  | a :: arow', w :: wrow', fp :: flips', pp :: perm' =>
      Z.eqb (nth_z arow2 pp) a && qeq (nth_q wrow2 pp) (new_weight s fq fp w) &&
      row_maps s fq arow' wrow' flips' perm' arow2 wrow2
  | _, _, _, _ => false
  end.

Fixpoint maps_from (s : aff_sym) (flips : list bool) (perm : list nat)
  (inst2 : tanh_instance) (adj : list (list Z)) (ws : list (list (Z * Z)))
  (bs : list (Z * Z)) (fl : list bool) (pm : list nat) : bool :=
  match bs, adj, ws, fl, pm with
  | [], [], [], [], [] => true
  | b :: bs', arow :: adj', wrow :: ws', fq :: fl', pq :: pm' =>
      row_maps s fq arow wrow flips perm (nth_row (ti_adj inst2) pq)
        (nth_row (ti_weights inst2) pq) &&
      qeq (nth_q (ti_biases inst2) pq) (new_bias s fq b (bias_shift s wrow flips)) &&
      maps_from s flips perm inst2 adj' ws' bs' fl' pm'
  | _, _, _, _, _ => false
  end.

(** [inst2] is [(flips, perm) . inst], exactly. *)
Definition check_apply (s : aff_sym) (inst : tanh_instance) (cs : list (list nat))
  (flips : list bool) (perm : list nat) (inst2 : tanh_instance) : bool :=
  aff_ok s && well_formed inst && well_formed inst2 &&
  Nat.eqb (ti_n_in inst) (ti_n_in inst2) && Nat.eqb (ti_n_out inst) (ti_n_out inst2) &&
  Nat.eqb (length (ti_biases inst)) (length (ti_biases inst2)) &&
  element_ok inst cs flips perm &&
  maps_from s flips perm inst2 (ti_adj inst) (ti_weights inst) (ti_biases inst) flips perm.

(* ---------------------------------------------------------------- classes, freeness, canonical form *)
Definition same_nbhd (inst : tanh_instance) (u v : nat) : bool :=
  zlist_eq (nth_row (ti_adj inst) u) (nth_row (ti_adj inst) v) &&
  zlist_eq (column (ti_adj inst) u) (column (ti_adj inst) v).

Fixpoint increasing_nats (xs : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' =>
      match xs' with
      | [] => true
      | y :: _ => Nat.ltb x y && increasing_nats xs'
      end
  end.

Fixpoint all_same_nbhd (inst : tanh_instance) (u : nat) (vs : list nat) : bool :=
  match vs with
  | [] => true
  | v :: vs' => same_nbhd inst u v && all_same_nbhd inst u vs'
  end.

Definition class_ok (inst : tanh_instance) (c : list nat) : bool :=
  negb (Nat.eqb (length c) 0) && increasing_nats c && all_same_nbhd inst (nth_nat c 0) c.

Fixpoint classes_ok (inst : tanh_instance) (cs : list (list nat)) : bool :=
  match cs with
  | [] => true
  | c :: cs' => class_ok inst c && classes_ok inst cs'
  end.

Fixpoint head_apart (inst : tanh_instance) (v : nat) (ds : list (list nat)) : bool :=
  match ds with
  | [] => true
  | d :: ds' => negb (same_nbhd inst v (nth_nat d 0)) && head_apart inst v ds'
  end.

Fixpoint heads_distinct (inst : tanh_instance) (cs : list (list nat)) : bool :=
  match cs with
  | [] => true
  | c :: cs' => head_apart inst (nth_nat c 0) cs' && heads_distinct inst cs'
  end.

Fixpoint flatten (cs : list (list nat)) : list nat :=
  match cs with
  | [] => []
  | c :: cs' => c ++ flatten cs'
  end.

Fixpoint all_mem (xs ys : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' => mem_nat x ys && all_mem xs' ys
  end.

Definition is_perm_of (xs ys : list nat) : bool :=
  Nat.eqb (length xs) (length ys) && nodup_nat xs && all_mem xs ys.

(** [cs] partitions the hidden nodes into the maximal classes of interchangeable nodes. *)
Definition check_classes (inst : tanh_instance) (cs : list (list nat)) : bool :=
  let size := length (ti_biases inst) in
  well_formed inst &&
  is_perm_of (flatten cs) (range_nat (ti_n_in inst) (size - ti_n_in inst - ti_n_out inst)) &&
  classes_ok inst cs && heads_distinct inst cs.

Fixpoint factorial (n : nat) : Z :=
  match n with
  | O => 1
  | S k => Z.of_nat n * factorial k
  end.

Fixpoint group_order_from (cs : list (list nat)) : Z :=
  match cs with
  | [] => 1
  | c :: cs' => factorial (length c) * group_order_from cs'
  end.

(** [|G_rho|^H * prod |C|!]. *)
Definition group_order (order hidden : nat) (cs : list (list nat)) : Z :=
  Z.pow (Z.of_nat order) (Z.of_nat hidden) * group_order_from cs.

Definition node_key (inst : tanh_instance) (v : nat) : list (Z * Z) :=
  nth_row (ti_weights inst) v ++ [nth_q (ti_biases inst) v].

Definition flipped_key (s : aff_sym) (inst : tanh_instance) (v : nat) : list (Z * Z) :=
  map (fun w => qmul (alpha s) w) (nth_row (ti_weights inst) v) ++
  [qadd (qmul (alpha s) (nth_q (ti_biases inst) v)) (beta s)].

Fixpoint key_lt (a b : list (Z * Z)) : bool :=
  match a, b with
  | x :: a', y :: b' => rat_lt x y || (qeq x y && key_lt a' b')
  | _, _ => false
  end.

Fixpoint pair_free (s : aff_sym) (flip : bool) (inst : tanh_instance) (u : nat)
  (vs : list nat) : bool :=
  match vs with
  | [] => true
  | v :: vs' =>
      negb (qeq_all (node_key inst u) (node_key inst v)) &&
      negb (flip && qeq_all (node_key inst u) (flipped_key s inst v)) &&
      pair_free s flip inst u vs'
  end.

Fixpoint free_class (s : aff_sym) (flip : bool) (inst : tanh_instance) (c : list nat) : bool :=
  match c with
  | [] => true
  | u :: c' =>
      negb (flip && qeq_all (flipped_key s inst u) (node_key inst u)) &&
      pair_free s flip inst u c' && free_class s flip inst c'
  end.

(** The group acts freely at [inst], so the orbit has [group_order] elements. *)
Fixpoint check_free (s : aff_sym) (flip : bool) (inst : tanh_instance) (cs : list (list nat))
  : bool :=
  match cs with
  | [] => true
  | c :: cs' => free_class s flip inst c && check_free s flip inst cs'
  end.

Fixpoint canonical_class (s : aff_sym) (flip : bool) (inst : tanh_instance) (c : list nat)
  : bool :=
  match c with
  | [] => true
  | u :: c' =>
      (negb flip || key_lt (flipped_key s inst u) (node_key inst u)) &&
      match c' with
      | [] => true
      | v :: _ => key_lt (node_key inst v) (node_key inst u)
      end &&
      canonical_class s flip inst c'
  end.

(** [inst] is in canonical form: sign-normalised and sorted in every class. *)
Fixpoint check_canonical (s : aff_sym) (flip : bool) (inst : tanh_instance)
  (cs : list (list nat)) : bool :=
  match cs with
  | [] => true
  | c :: cs' => canonical_class s flip inst c && check_canonical s flip inst cs'
  end.

Fixpoint rows_key_eq (a b : list (list (Z * Z))) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeq_all x y && rows_key_eq a' b'
  | _, _ => false
  end.

Fixpoint adj_eq (a b : list (list Z)) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => zlist_eq x y && adj_eq a' b'
  | _, _ => false
  end.

Definition same_instance (a b : tanh_instance) : bool :=
  Nat.eqb (ti_n_in a) (ti_n_in b) && Nat.eqb (ti_n_out a) (ti_n_out b) &&
  adj_eq (ti_adj a) (ti_adj b) && rows_key_eq (ti_weights a) (ti_weights b) &&
  qeq_all (ti_biases a) (ti_biases b).

(** The same nodes and the same edges (weights and biases may differ). *)
Definition same_graph (a b : tanh_instance) : bool :=
  Nat.eqb (ti_n_in a) (ti_n_in b) && Nat.eqb (ti_n_out a) (ti_n_out b) &&
  adj_eq (ti_adj a) (ti_adj b).

(* ---------------------------------------------------------------- genericity conditions *)
Fixpoint has_edge_from (v : nat) (adj : list (list Z)) : bool :=
  match adj with
  | [] => false
  | arow :: adj' => Z.eqb (nth_z arow v) 1 || has_edge_from v adj'
  end.

Fixpoint outs_nonzero (v : nat) (adj : list (list Z)) (ws : list (list (Z * Z))) : bool :=
  match adj, ws with
  | [], [] => true
  | arow :: adj', wrow :: ws' =>
      (negb (Z.eqb (nth_z arow v) 1) || negb (Z.eqb (fst (nth_q wrow v)) 0)) &&
      outs_nonzero v adj' ws'
  | _, _ => false
  end.

Fixpoint any_nonzero (ws : list (Z * Z)) : bool :=
  match ws with
  | [] => false
  | w :: ws' => negb (Z.eqb (fst w) 0) || any_nonzero ws'
  end.

Fixpoint hidden_generic (inst : tanh_instance) (vs : list nat) : bool :=
  match vs with
  | [] => true
  | v :: vs' =>
      has_edge_from v (ti_adj inst) && outs_nonzero v (ti_adj inst) (ti_weights inst) &&
      any_nonzero (nth_row (ti_weights inst) v) && hidden_generic inst vs'
  end.

(** Sussmann's irreducibility (one hidden layer). *)
Definition check_sussmann (s : aff_sym) (inst : tanh_instance) (cs : list (list nat)) : bool :=
  hidden_generic inst
    (range_nat (ti_n_in inst) (length (ti_biases inst) - ti_n_in inst - ti_n_out inst)) &&
  check_free s true inst cs.

Definition abs_q (a : Z * Z) : Z * Z := (Z.abs (fst a), snd a).

Fixpoint abs_apart (inst : tanh_instance) (b : Z * Z) (vs : list nat) : bool :=
  match vs with
  | [] => true
  | v :: vs' => negb (qeq (abs_q b) (abs_q (nth_q (ti_biases inst) v))) && abs_apart inst b vs'
  end.

Fixpoint biases_distinct (inst : tanh_instance) (c : list nat) : bool :=
  match c with
  | [] => true
  | u :: c' =>
      negb (Z.eqb (fst (nth_q (ti_biases inst) u)) 0) &&
      abs_apart inst (nth_q (ti_biases inst) u) c' && biases_distinct inst c'
  end.

Fixpoint row_edges_nonzero (arow : list Z) (wrow : list (Z * Z)) : bool :=
  match arow, wrow with
  | a :: arow', w :: wrow' => (Z.eqb a 0 || negb (Z.eqb (fst w) 0)) && row_edges_nonzero arow' wrow'
  | _, _ => true
  end.

Fixpoint edges_nonzero_rows (adj : list (list Z)) (ws : list (list (Z * Z))) : bool :=
  match adj, ws with
  | a :: adj', w :: ws' => row_edges_nonzero a w && edges_nonzero_rows adj' ws'
  | _, _ => true
  end.

Definition all_edges_nonzero (inst : tanh_instance) : bool :=
  edges_nonzero_rows (ti_adj inst) (ti_weights inst).

Fixpoint all_biases_distinct (inst : tanh_instance) (cs : list (list nat)) : bool :=
  match cs with
  | [] => true
  | c :: cs' => biases_distinct inst c && all_biases_distinct inst cs'
  end.

(** Fefferman-type genericity (deep nets). *)
Definition check_fefferman (inst : tanh_instance) (cs : list (list nat)) : bool :=
  all_edges_nonzero inst && all_biases_distinct inst cs.

(** [1] at the columns [p] of [ps] with [lo <= p < hi], else [0]. *)
Fixpoint band_row (lo hi : nat) (ps : list nat) : list Z :=
  match ps with
  | [] => []
  | p :: ps' => (if Nat.leb lo p && Nat.ltb p hi then 1 else 0) :: band_row lo hi ps'
  end.

Fixpoint repeat_row (k : nat) (row : list Z) : list (list Z) :=
  match k with
  | O => []
  | S k' => row :: repeat_row k' row
  end.

(** The adjacency rows of the layers [widths], the previous layer being the [pw] nodes from
    [lo]: full connections between consecutive layers, no other edge. *)
Fixpoint layers_adj (lo pw size : nat) (widths : list nat) : list (list Z) :=
  match widths with
  | [] => []
  | w :: widths' =>
      repeat_row w (band_row lo (lo + pw)%nat (range_nat 0 size)) ++
      layers_adj (lo + pw)%nat w size widths'
  end.

Fixpoint widths_sum (widths : list nat) : nat :=
  match widths with
  | [] => O
  | w :: widths' => (w + widths_sum widths')%nat
  end.

(** [inst] is the fully connected layered MLP of [widths] (at least one hidden layer). *)
Definition check_layered (widths : list nat) (inst : tanh_instance) : bool :=
  let size := length (ti_biases inst) in
  Nat.ltb 2 (length widths) && Nat.eqb (widths_sum widths) size &&
  Nat.eqb (first_width widths) (ti_n_in inst) &&
  Nat.eqb (last_width widths) (ti_n_out inst) &&
  adj_eq (ti_adj inst) (layers_adj 0 0 size widths).

(* ---------------------------------------------------------------- certificate checks *)
(** Orbit: the classes, a representative reached by a group element, the group order; when
    [free], freeness and the representative's canonical form (unique in a free orbit). *)
Definition check_orbit (s : aff_sym) (flip : bool) (inst : tanh_instance)
  (cs : list (list nat)) (flips : list bool) (perm : list nat) (canon : tanh_instance)
  (free : bool) (order : Z) : bool :=
  check_classes inst cs && check_apply s inst cs flips perm canon &&
  Z.eqb order
    (group_order (if flip then 2 else 1) (length (ti_biases inst) - ti_n_in inst - ti_n_out inst) cs) &&
  (negb free || (check_free s flip inst cs && check_canonical s flip canon cs)).

(** Inequivalence: both networks reach different canonical forms. *)
(** The same graph, [cs] its classes, and a group element maps [inst1] onto [inst2]. *)
Definition check_equivalent (s : aff_sym) (inst1 inst2 : tanh_instance)
  (cs : list (list nat)) (flips : list bool) (perm : list nat) : bool :=
  check_classes inst1 cs && same_graph inst1 inst2 && check_apply s inst1 cs flips perm inst2.

(** The same graph with classes [cs]; both networks reach canonical forms by checked group
    elements, and the forms differ. *)
Definition check_inequivalent (s : aff_sym) (flip : bool) (inst1 inst2 : tanh_instance)
  (cs : list (list nat)) (flips1 : list bool) (perm1 : list nat) (canon1 : tanh_instance)
  (flips2 : list bool) (perm2 : list nat) (canon2 : tanh_instance) : bool :=
  check_classes inst1 cs && check_classes inst2 cs && same_graph inst1 inst2 &&
  check_classes canon1 cs && check_classes canon2 cs &&
  check_apply s inst1 cs flips1 perm1 canon1 && check_apply s inst2 cs flips2 perm2 canon2 &&
  check_canonical s flip canon1 cs && check_canonical s flip canon2 cs &&
  negb (same_instance canon1 canon2).
