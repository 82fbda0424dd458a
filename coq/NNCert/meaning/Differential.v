(** The differential of theta -> f_theta at theta, and why the sample Jacobian's rank bounds
    its rank (issue 24, item 2), for MLPs and ResNets (MathComp 1.15).
    - The differential's value on a direction [v] is the directional derivative
      [x, k -> d/dt f_(theta + t v)(x)[k]] at [t = 0] ([mlp_dir_deriv], [resnet_dir_deriv]):
      the network evaluated over [{poly rat}] at the parameters [theta + t v] ([dir_at];
      entries of [v] past its length count as 0) and the integer input [x], by the evaluators
      of Jacobian.v, then the derivative of that polynomial at 0; the same at any rational
      point instead of theta ([mlp_dir_deriv_at], [resnet_dir_deriv_at]).
    - A map [D] from directions to functions has rank at least [r] ([rank_ge]) when [r]
      directions have linearly independent images: a rational combination of them that
      vanishes at every input [x] and output [k] is zero. Inputs range over [Z^n]; a
      combination vanishing on all of [Q^n] vanishes there too, so this is the stronger form.
    - At a unit vector [e_j] the directional derivative is the Jacobian entry of
      RankMeaning.v ([mlp_dir_deriv_unit]). A nonsingular [r x r] minor of the sample
      Jacobian (RankSound.v's [unit_minor]) makes the unit vectors of its columns such
      directions ([rank_ge_of_minor]): a combination of their images that vanishes everywhere
      vanishes at the minor's samples, and the minor is invertible.
    - Along every line [theta + t v] the same minor stays invertible at all but finitely many
      [t] (GenericRank.v's [unit_minor_line]), and at those points the argument above applies
      to the differential at [theta + t v] ([rank_ge_on_lines]).
    Main theorems: [mlp_differential_rank_lower], [resnet_differential_rank_lower] (at theta),
    [mlp_differential_rank_lower_on_lines], [resnet_differential_rank_lower_on_lines] (along
    every line), from the same kernel check as [rank_lower]. *)
From Coq Require Import ZArith List.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet Jacobian RankMeaning ElimSound.
From NNCert Require Import RankSound Backprop GenericRank.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import div bigop ssralg matrix poly rat.
Import GRing.Theory.
Local Open Scope ring_scope.

(** The unit vector [e_j] with [n] entries. *)
Definition unit_dir (n j : nat) : list rat := mkseq (fun i => (i == j)%:R) n.

(** The parameters [th + t v] at a rational point [th]. *)
Fixpoint dir_at (th v : list rat) : list {poly rat} :=
  match th with
  | nil => nil
  | a :: th' => (a%:P + List.hd 0 v *: 'X) :: dir_at th' (List.tl v)
  end.

(** The directional derivatives of the MLP and the ResNet of [inst] at the point [th]. *)
Definition mlp_dir_deriv_at (inst : rank_instance) (th v : list rat) (x : list Z) (k : nat)
    : rat :=
  let P := List.nth k (mlp_value (arith_ring _ : arith {poly rat}) (widths inst)
             (List.map (List.map (fun c => (q_of c)%:P)) (acts inst)) (bias inst)
             (dir_at th v) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

Definition resnet_dir_deriv_at (inst : resnet_instance) (th v : list rat) (x : list Z)
    (k : nat) : rat :=
  let P := List.nth k (resnet_forward (arith_ring _ : arith {poly rat}) (rn_width inst)
             (rn_outer inst) (List.map (List.map (fun c => (q_of c)%:P)) (rn_acts inst))
             (dir_at th v) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

(** Along [e_j] the parameters are Backprop.v's [line]. *)
Lemma dir_at_unit (th : list rat) i j :
  dir_at th (map (fun i' => (i' == j)%:R) (iota i (length th))) = line th i j.
Proof.
  elim: th i => [| a th IH] i //=. rewrite IH.
  have -> : Nat.eqb i j = (i == j) by case: (Nat.eqb_spec i j) => [->|/eqP/negbTE ->];
    rewrite ?eqxx.
  by case: (i == j); rewrite ?scale1r ?scale0r.
Qed.

Lemma mlp_dir_deriv_at_unit inst th j x k :
  mlp_dir_deriv_at inst th (unit_dir (length th) j) x k = mlp_jac_entry_at inst th x k j.
Proof. by rewrite /mlp_dir_deriv_at /unit_dir /mkseq dir_at_unit. Qed.

Lemma resnet_dir_deriv_at_unit inst th j x k :
  resnet_dir_deriv_at inst th (unit_dir (length th) j) x k = resnet_jac_entry_at inst th x k j.
Proof. by rewrite /resnet_dir_deriv_at /unit_dir /mkseq dir_at_unit. Qed.

(** The directional derivatives at the instance's theta. *)
Definition mlp_dir_deriv (inst : rank_instance) : list rat -> list Z -> nat -> rat :=
  mlp_dir_deriv_at inst (List.map q_of (theta inst)).

Definition resnet_dir_deriv (inst : resnet_instance) : list rat -> list Z -> nat -> rat :=
  resnet_dir_deriv_at inst (List.map q_of (rn_theta inst)).

(** [D] (directions to functions of the input and the output index) has rank at least [r]:
    [r] directions whose images are linearly independent over Q. *)
Definition rank_ge (D : list rat -> list Z -> nat -> rat) (r : nat) : Prop :=
  exists V : 'I_r -> list rat, forall c : 'I_r -> rat,
    (forall x k, \sum_(i < r) c i * D (V i) x k = 0) -> forall i, c i = 0.

(** At the instance's theta, the unit vectors give RankMeaning.v's Jacobian entries. *)
Lemma mlp_dir_deriv_unit inst j x k :
  mlp_dir_deriv inst (unit_dir (length (theta inst)) j) x k = mlp_jac_entry inst x k j.
Proof.
  rewrite /mlp_dir_deriv -(List.map_length q_of (theta inst)) mlp_dir_deriv_at_unit.
  by rewrite /mlp_jac_entry_at /mlp_jac_entry theta_line_line.
Qed.

Lemma resnet_dir_deriv_unit inst j x k :
  resnet_dir_deriv inst (unit_dir (length (rn_theta inst)) j) x k = resnet_jac_entry inst x k j.
Proof.
  rewrite /resnet_dir_deriv -(List.map_length q_of (rn_theta inst)) resnet_dir_deriv_at_unit.
  by rewrite /resnet_jac_entry_at /resnet_jac_entry theta_line_line.
Qed.

(** A matrix whose entry [(i, j)] is the image of direction [e j] at the input and output of
    row [i]: a nonsingular [r x r] minor gives [r] directions with independent images. *)
Lemma rank_ge_of_minor (D : list rat -> list Z -> nat -> rat) m n r (J : 'M[rat]_(m, n))
    (e : 'I_n -> list rat) (xi : 'I_m -> list Z) (ki : 'I_m -> nat) :
  (forall i j, J i j = D (e j) (xi i) (ki i)) -> unit_minor r J -> rank_ge D r.
Proof.
  move=> HJ [f [g U]]. exists (fun i => e (g i)) => c Hc.
  have H0 : (\row_i c i) *m (mxsub f g J)^T = 0.
    apply/rowP => i'. rewrite !mxE -[RHS](Hc (xi (f i')) (ki (f i'))).
    apply: eq_bigr => i _. by rewrite !mxE HJ.
  have Ut : (mxsub f g J)^T \in unitmx by rewrite unitmx_tr.
  have := congr1 (mulmx^~ (invmx (mxsub f g J)^T)) H0.
  rewrite -mulmxA mulmxV // mulmx1 mul0mx => /rowP Hr i.
  by have := Hr i; rewrite !mxE.
Qed.

(** * The theorems the certificates apply *)

(** The kernel's lower-bound check (p prime): the differential of the MLP at theta has rank
    at least [r]. *)
Theorem mlp_differential_rank_lower inst w r :
  check_rank_lower inst w r = true -> prime_ok (lw_p w) = true ->
  rank_ge (mlp_dir_deriv inst) r.
Proof.
  move=> Hc Hp.
  apply: (rank_ge_of_minor _ _ _ r (mlp_jacobian inst (lw_samples w))
    (fun j => unit_dir (length (theta inst)) j)
    (fun i => nth_row (lw_samples w) (i %/ last_width (widths inst)))
    (fun i => i %% last_width (widths inst))).
  - move=> i j. by rewrite mxE mlp_dir_deriv_unit.
  - exact: mlp_unit_minor_sound.
Qed.

(** The same for the ResNet. *)
Theorem resnet_differential_rank_lower inst w r :
  check_rank_lower_resnet inst w r = true -> prime_ok (lw_p w) = true ->
  rank_ge (resnet_dir_deriv inst) r.
Proof.
  move=> Hc Hp.
  apply: (rank_ge_of_minor _ _ _ r (resnet_jacobian inst (lw_samples w))
    (fun j => unit_dir (length (rn_theta inst)) j)
    (fun i => nth_row (lw_samples w) (i %/ rn_width inst))
    (fun i => i %% rn_width inst)).
  - move=> i j. by rewrite mxE resnet_dir_deriv_unit.
  - exact: resnet_unit_minor_sound.
Qed.

(** * Along every line through theta *)

(** The statement of a certificate's [differential_rank_lower_generic]: for every direction
    [v] (entries past its length count as 0) there is an [N] such that at most [N] points
    [th + t v] of the line have [rank (D (th + t v)) < r]: the differential has rank at least
    [r] at all but finitely many points of every line through [th]. *)
Definition rank_ge_on_lines (D : list rat -> list rat -> list Z -> nat -> rat) (th : list rat)
    (r : nat) : Prop :=
  forall v : list rat, exists N : nat, forall ts : seq rat, uniq ts ->
    (forall t, t \in ts -> ~ rank_ge (D (on_line th v t)) r) -> (size ts <= N)%N.

(** The shared step: the matrix of polynomials [E v], evaluated at [t], is the matrix
    [J (th + t v)] whose entries are [D]'s images of the unit vectors, and [J th] has an
    invertible [r x r] minor; the minor stays invertible at all but finitely many [t]. *)
Lemma rank_ge_on_lines_of_minor (D : list rat -> list rat -> list Z -> nat -> rat) m n r
    (J : list rat -> 'M[rat]_(m, n)) (E : list rat -> 'M[{poly rat}]_(m, n)) (th : list rat)
    (xi : 'I_m -> list Z) (ki : 'I_m -> nat) :
  (forall v t, map_mx (horner_eval t) (E v) = J (on_line th v t)) ->
  (forall p i j, J p i j = D p (unit_dir (length p) j) (xi i) (ki i)) ->
  unit_minor r (J th) -> rank_ge_on_lines D th r.
Proof.
  move=> HE HJ U v.
  have [|N HN] := @unit_minor_line _ _ r (E v); first by rewrite HE on_line0.
  exists N => ts Uts Hts. apply: HN => // t Ht Ut. apply: (Hts t Ht).
  rewrite HE in Ut.
  exact: (rank_ge_of_minor _ _ _ r _ (fun j => unit_dir (length (on_line th v t)) j) xi ki
            (HJ _) Ut).
Qed.

(** [check_rank_lower = true] and [p] prime: the differential of the MLP has rank at least
    [r] at all but finitely many points of every line through theta. *)
Theorem mlp_differential_rank_lower_on_lines inst w r :
  check_rank_lower inst w r = true -> prime_ok (lw_p w) = true ->
  rank_ge_on_lines (mlp_dir_deriv_at inst) (List.map q_of (theta inst)) r.
Proof.
  move=> Hc Hpr.
  apply: (rank_ge_on_lines_of_minor _ _ _ r (fun p => mlp_jacobian_at inst p (lw_samples w))
    (fun v => mlp_line_matrix inst (List.map q_of (theta inst)) v (lw_samples w)) _
    (fun i => nth_row (lw_samples w) (i %/ last_width (widths inst)))
    (fun i => i %% last_width (widths inst))).
  - move=> v t. exact: mlp_line_matrix_at.
  - move=> p i j. by rewrite mxE mlp_dir_deriv_at_unit.
  - rewrite mlp_jacobian_at_theta. exact: (mlp_unit_minor_sound _ _ _ Hc Hpr).
Qed.

(** The same for the ResNet. *)
Theorem resnet_differential_rank_lower_on_lines inst w r :
  check_rank_lower_resnet inst w r = true -> prime_ok (lw_p w) = true ->
  rank_ge_on_lines (resnet_dir_deriv_at inst) (List.map q_of (rn_theta inst)) r.
Proof.
  move=> Hc Hpr.
  apply: (rank_ge_on_lines_of_minor _ _ _ r (fun p => resnet_jacobian_at inst p (lw_samples w))
    (fun v => resnet_line_matrix inst (List.map q_of (rn_theta inst)) v (lw_samples w)) _
    (fun i => nth_row (lw_samples w) (i %/ rn_width inst))
    (fun i => i %% rn_width inst)).
  - move=> v t. exact: resnet_line_matrix_at.
  - move=> p i j. by rewrite mxE resnet_dir_deriv_at_unit.
  - rewrite resnet_jacobian_at_theta. exact: (resnet_unit_minor_sound _ _ _ Hc Hpr).
Qed.
