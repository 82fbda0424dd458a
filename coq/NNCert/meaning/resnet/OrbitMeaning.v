(** What a real orbit certificate of a polynomial ResNet means (kind orbit of family resnet,
    field real): the kernel's check [check_resnet_orbit] (kernel/ResNet.v) as a statement about
    the network evaluated over MathComp's [rat] by [Jacobian.resnet_forward], the forward
    evaluator the rank theorems use (nothing here depends on how the kernel computes).
    - [resnet_fun inst th x]: the outputs [F_th(x)] over Q, the parameters and activation
      coefficients read by [q_of], the integer input by [zr].
    - The kernel evaluates with forward-mode dual numbers over unnormalised pairs; the value
      part of [resnet_dual] is [Jacobian.resnet_forward] ([Jacobian.resnet_dual_fst]), and [RQ]
      (a pair with a positive denominator denotes a rational) is respected by both
      arithmetics ([Jacobian.resnet_forward_rel]).
    - [resnet_orbit_meaning]: every listed parameter vector gives the outputs of [theta] at
      every point of the principal lattice of degree [degree_bound], and the listed vectors
      are pairwise distinct over Q. That the lattice is unisolvent
      (so that agreement there is equality of the polynomial maps) stays cited
      (design.md §6), as for the MLP's [EquivMeaning.same_meaning]. *)
From Coq Require Import ZArith List.
From NNCert Require Import Lists Arith Net Rank ResNet Jacobian RankMeaning EquivMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssralg rat.
Local Open Scope ring_scope.

(** * Over MathComp's rationals *)

(** [F_th(x)] over Q: the ResNet of [inst] at the parameters [th] and the integer input [x]. *)
Definition resnet_fun (inst : resnet_instance) (th : list (Z * Z)) (x : list Z) : list rat :=
  resnet_forward (arith_ring _ : arith rat) (rn_width inst) (rn_outer inst)
    (List.map (List.map q_of) (rn_acts inst)) (List.map q_of th) (List.map zr x).

(** The kernel's exact value at [x] denotes [F_th(x)] over Q. *)
Lemma resnet_value_q_RQ inst th x : rats_pos th = true -> acts_pos (rn_acts inst) = true ->
  Forall2 RQ (resnet_fun inst th x) (resnet_value_q inst th x).
Proof.
  move=> Ht Ha. rewrite /resnet_value_q resnet_dual_fst /resnet_fun.
  apply: (resnet_forward_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQ1 RQadd RQmul);
    [exact: acts_RQ| exact: rats_rel| exact: ints_RQ].
Qed.

(** * The theorems a certificate ends in *)

(** Pairwise distinct under [qeq_all] means pairwise distinct as lists of rationals. *)
Lemma distinct_q_NoDup : forall orbit, (forall th, In th orbit -> rats_pos th = true) ->
  distinct_q orbit = true -> NoDup (List.map (List.map q_of) orbit).
Proof.
  elim => [| a l IH] Hpos /=; first by constructor.
  move=> /andP [Hall Hd]. constructor; last first.
    by apply: IH => // th Hin; apply: Hpos; right.
  move=> /in_map_iff [b [Hb Hin]].
  have := (proj1 (forallb_forall _ _) Hall) b Hin.
  rewrite (RQ_qeq_all _ _ _ _ (rats_rel a (Hpos a (or_introl erefl)))
    (rats_rel b (Hpos b (or_intror Hin)))).
  by rewrite Hb eqxx.
Qed.

(** [check_resnet_orbit]: every listed parameter vector gives the outputs of [theta] over Q at
    every point of the principal lattice of degree [degree_bound (rn_acts inst)], and the
    listed vectors are pairwise distinct (as lists of rationals). *)
Theorem resnet_orbit_meaning inst orbit : check_resnet_orbit inst orbit = true ->
  (forall th, In th orbit ->
     forall x, In x (lattice (rn_width inst) (degree_bound (rn_acts inst))) ->
       resnet_fun inst th x = resnet_fun inst (rn_theta inst) x) /\
  NoDup (List.map (List.map q_of) orbit).
Proof.
  rewrite /check_resnet_orbit; case Hs: (orbit_shape_ok inst orbit) => //.
  move: Hs; rewrite /orbit_shape_ok => /andP [/andP [/andP [_ Ht] Ha] /forallb_forall Hsh].
  move=> /andP [/forallb_forall Hall Hd].
  have Hpos th : In th orbit -> rats_pos th = true.
    by move=> Hin; case/andP: (Hsh th Hin).
  split; last exact: distinct_q_NoDup.
  move=> th Hin x Hx.
  have := (proj1 (forallb_forall _ _) (Hall x Hx)) th Hin.
  rewrite (RQ_qeq_all _ _ _ _ (resnet_value_q_RQ inst _ x Ht Ha)
    (resnet_value_q_RQ inst _ x (Hpos th Hin) Ha)).
  by move/eqP.
Qed.
