(** What an equivalence certificate of a polynomial MLP means (kind equiv of family mlp): the
    kernel's checks [check_mlp_same] and [check_mlp_differ] (kernel/Rank.v) as statements about
    the network evaluated over MathComp's [rat] by [Jacobian.mlp_value], the forward evaluator
    the rank theorems use (nothing here depends on how the kernel computes).
    - [mlp_fun inst th x]: the outputs [f_th(x)] over Q, the parameters and activation
      coefficients read by [q_of], the integer input by [zr].
    - The kernel evaluates with forward-mode dual numbers over unnormalised pairs; the value
      part of [net_eval] is [Jacobian.mlp_value] ([net_eval_fst]), and [RQ] (a pair with a
      positive denominator denotes a rational) is respected by both arithmetics.
    - [same_meaning]: both parameter points give the same outputs at every point of the
      principal lattice of degree [degree_bound]; [differ_meaning]: they give different
      outputs at [x]. That the lattice is unisolvent (so that agreement there is equality of
      the polynomial maps) stays cited (design.md §6). *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank Jacobian RankMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq ssralg rat ssrnum.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(** * The value part of the kernel's forward mode *)

Section Dual.
Context {A : Type} (ar : arith A).

(** [net_dual]'s value is [mlp_forward] (tangents of the same length as the values). *)
Lemma net_dual_fst bias rest : forall prev acts th dth h dh,
  fst (net_dual ar bias prev rest acts th dth h dh) = mlp_forward ar bias prev rest acts th h.
Proof.
  elim: rest => [| d rest IH] prev acts th dth h dh //=.
  set rowlen := (prev + (if bias then 1 else 0))%N.
  have := layer_dual_fst ar rowlen d th dth (with_bias bias h (one ar))
    (with_bias bias dh (zero ar)).
  have := layer_dual_len ar rowlen d th dth (with_bias bias h (one ar))
    (with_bias bias dh (zero ar)).
  case: (layer_dual ar rowlen d th dth _ _) => pre dpre /= [Hl Hdl] Hpre.
  case: rest IH => [| d' rest] IH; first by rewrite Hpre.
  have [Hv _] := act_dual_spec ar (hd nil acts) pre dpre (etrans Hl (esym Hdl)).
  move: Hv. case: (act_dual ar (hd nil acts) pre dpre) => h' dh' /= ->.
  by rewrite IH Hpre.
Qed.

Lemma net_eval_fst widths acts bias th dth x dx :
  fst (net_eval ar widths acts bias th dth x dx) = Jacobian.mlp_value ar widths acts bias th x.
Proof. case: widths => [| d0 rest] //=. exact: net_dual_fst. Qed.

End Dual.

(** * Over MathComp's rationals *)

(** [f_th(x)] over Q: the network of [inst] at the parameters [th] and the integer input [x]. *)
Definition mlp_fun (inst : rank_instance) (th : list (Z * Z)) (x : list Z) : list rat :=
  Jacobian.mlp_value (arith_ring _ : arith rat) (widths inst)
    (List.map (List.map q_of) (acts inst)) (bias inst) (List.map q_of th) (List.map zr x).

Lemma mlp_forward_RQ bias rest : forall prev acts acts' th th' h h',
  Forall2 (Forall2 RQ) acts acts' -> Forall2 RQ th th' -> Forall2 RQ h h' ->
  Forall2 RQ (mlp_forward (arith_ring _ : arith rat) bias prev rest acts th h)
    (mlp_forward arith_q bias prev rest acts' th' h').
Proof.
  elim: rest => [| d rest IH] prev acts acts' th th' h h' Ha Ht Hh //=.
  have Hpre := layer_vals_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQadd RQmul
    (prev + (if bias then 1 else 0))%N d th th' _ _ Ht
    (with_bias_rel RQ bias h h' 1 (1, 1)%Z Hh RQ1).
  case: rest IH => [| d' rest] IH; first exact: Hpre.
  apply: IH.
  - exact: (tl_rel RQ acts acts' Ha).
  - exact: (drop_n_rel RQ).
  - exact: (map_horner_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQadd RQmul _ _ _ _
      (hd_rel RQ acts acts' Ha) Hpre).
Qed.

Lemma zr_RQ z : RQ (zr z) (z, 1)%Z.
Proof. split; [done|]. by rewrite /q_of /= zr1 divr1. Qed.

Lemma ints_RQ x : Forall2 RQ (List.map zr x) (ints_q x).
Proof. elim: x => [| z x IH] /=; constructor => //. exact: zr_RQ. Qed.

Lemma acts_RQ acts : acts_pos acts = true -> Forall2 (Forall2 RQ) (List.map (List.map q_of) acts) acts.
Proof.
  elim: acts => [| a acts IH] //= /andP [Ha Hacts]. constructor; [exact: rats_rel| exact: IH].
Qed.

(** The kernel's exact value at [x] denotes [f_th(x)] over Q. *)
Lemma mlp_value_q_RQ inst th x : rats_pos th = true -> acts_pos (acts inst) = true ->
  Forall2 RQ (mlp_fun inst th x) (mlp_value_q inst th x).
Proof.
  move=> Ht Ha. rewrite /mlp_value_q net_eval_fst /mlp_fun /Jacobian.mlp_value.
  case: (widths inst) => [| d0 rest] //=.
  apply: mlp_forward_RQ; [exact: acts_RQ| exact: rats_rel| exact: ints_RQ].
Qed.

(** Two pairs that denote rationals are [qeq] iff they denote the same one. *)
Lemma RQ_qeq q q' a b : RQ q a -> RQ q' b -> qeq a b = (q == q').
Proof.
  move=> [Ha ->] [Hb ->]. rewrite /qeq /q_of.
  rewrite eqr_div ?zr_neq0 // -!zrM. apply/idP/idP.
  - by move/Z.eqb_eq => ->.
  - move/eqP => E. apply/Z.eqb_eq.
    have : zr (fst a * snd b + Z.opp (fst b * snd a))%Z = 0 :> rat.
      by rewrite zrD zrN E subrr.
    move/zr_eq0. lia.
Qed.

Lemma RQ_qeq_all l l' a b : Forall2 RQ l a -> Forall2 RQ l' b -> qeq_all a b = (l == l').
Proof.
  move=> H; elim: H l' b => [| q x qs xs Hq _ IH] l' b H';
    case: H' => [| q' y qs' ys Hq' H2] //=.
  by rewrite (RQ_qeq _ _ _ _ Hq Hq') (IH _ _ H2) eqseq_cons.
Qed.

Lemma equiv_shape_pos inst other : equiv_shape_ok inst other = true ->
  rats_pos (theta inst) = true /\ rats_pos other = true /\ acts_pos (acts inst) = true.
Proof. by rewrite /equiv_shape_ok => /andP [/andP [/andP [_ ->] ->] ->]. Qed.

(** * The theorems a certificate ends in *)

(** [check_mlp_same]: both parameter points give the same outputs over Q at every point of
    the principal lattice of degree [degree_bound (acts inst)]. *)
Theorem same_meaning inst other : check_mlp_same inst other = true ->
  forall x, In x (lattice (first_width (widths inst)) (degree_bound (acts inst))) ->
    mlp_fun inst (theta inst) x = mlp_fun inst other x.
Proof.
  rewrite /check_mlp_same => /andP [Hs /forallb_forall Hall] x Hx.
  have [Ht [Ho Ha]] := equiv_shape_pos inst other Hs.
  have := Hall x Hx.
  rewrite (RQ_qeq_all _ _ _ _ (mlp_value_q_RQ inst _ x Ht Ha) (mlp_value_q_RQ inst _ x Ho Ha)).
  by move/eqP.
Qed.

(** [check_mlp_differ]: the two parameter points give different outputs over Q at [x]. *)
Theorem differ_meaning inst other x : check_mlp_differ inst other x = true ->
  mlp_fun inst (theta inst) x <> mlp_fun inst other x.
Proof.
  rewrite /check_mlp_differ => /andP [/andP [Hs _] Hne].
  have [Ht [Ho Ha]] := equiv_shape_pos inst other Hs.
  move: Hne.
  rewrite (RQ_qeq_all _ _ _ _ (mlp_value_q_RQ inst _ x Ht Ha) (mlp_value_q_RQ inst _ x Ho Ha)).
  by move=> /negP Hne E; apply: Hne; rewrite E.
Qed.
