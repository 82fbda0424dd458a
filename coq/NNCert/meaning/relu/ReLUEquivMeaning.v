(** What a ReLU equivalence certificate with a differing input means (kind equiv of family
    relu, witness "differ"): the kernel's [check_relu_differ] (kernel/ReLU.v) as a statement
    about the network over MathComp's [rat]: [relu_fun inst th x] is the output of
    [A_L o ReLU o ... o ReLU o A_1] at the rational input [x], [ReLU(q) = if 0 < q then q
    else 0], evaluated here by [relu_out] (nothing depends on how the kernel computes). *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ReLU Jacobian RankMeaning ReverseModeRel.
From NNCert Require Import EquivMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq ssralg rat ssrnum.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(** The output of the ReLU network of widths [prev :: rest] (MLP layout with biases) at [h],
    [ReLU(a) = if pos a then a else 0]: the layers of Jacobian.v's [relu_pres], to the end. *)
Fixpoint relu_out {A : Type} (ar : arith A) (pos : A -> bool) (prev : nat) (rest : list nat)
    (th h : list A) : list A :=
  match rest with
  | nil => h
  | d :: rest' =>
      let pre := layer_vals ar (prev + 1) d th (h ++ [:: one ar]) in
      match rest' with
      | nil => pre
      | _ :: _ =>
          relu_out ar pos d rest' (drop_n (d * (prev + 1)) th)
            (mask_pat ar (List.map pos pre) pre)
      end
  end.

(** The kernel's exact output is [relu_out] over [arith_q] with positivity [qpos]. *)
Lemma relu_forward_out rest : forall prev th h,
  fst (relu_forward prev rest th h) = relu_out arith_q qpos prev rest th h.
Proof.
  elim: rest => [| d rest IH] prev th h; first by [].
  rewrite [relu_forward _ _ _ _]/= [relu_out _ _ _ _ _ _]/=.
  case: rest IH => [| d' rest'] IH; first by [].
  rewrite -relu_vec_q_mask -IH.
  by case: (relu_forward d (d' :: rest') _ _).
Qed.

Lemma relu_out_RQ rest : forall prev th th' h h',
  Forall2 RQ th th' -> Forall2 RQ h h' ->
  Forall2 RQ (relu_out (arith_ring _ : arith rat) (fun q => 0 < q) prev rest th h)
    (relu_out arith_q qpos prev rest th' h').
Proof.
  elim: rest => [| d rest IH] prev th th' h h' Ht Hh //=.
  have Hone : Forall2 RQ (h ++ [:: 1]) (h' ++ [:: (1, 1)%Z]).
    by apply: Forall2_app => //; constructor; [exact: RQ1| constructor].
  have Hpre := layer_vals_rel (arith_ring _ : arith rat) arith_q RQ RQ0 RQadd RQmul
    (prev + 1) d th th' _ _ Ht Hone.
  case: rest IH => [| d' rest'] IH; first exact: Hpre.
  rewrite (map_pos_rel RQ (fun q => 0 < q) qpos _ _ RQ_pos Hpre).
  apply: IH; first exact: (drop_n_rel RQ).
  exact: (mask_pat_rel (arith_ring _ : arith rat) arith_q RQ RQ0).
Qed.

(** [F_th(x)] over Q: the ReLU network of [inst] at the parameters [th], input [x]. *)
Definition relu_fun (inst : relu_instance) (th : list (Z * Z)) (x : Z * Z) : list rat :=
  match ri_widths inst with
  | nil => [::]
  | d0 :: rest =>
      relu_out (arith_ring _ : arith rat) (fun q => 0 < q) d0 rest (List.map q_of th) [:: q_of x]
  end.

Lemma relu_eval_RQ inst th x : rats_pos th = true -> (0 < snd x)%Z ->
  Forall2 RQ (relu_fun inst th x) (fst (relu_eval (ri_widths inst) th [:: x])).
Proof.
  move=> Ht Hx. rewrite /relu_fun /relu_eval.
  case: (ri_widths inst) => [| d0 rest] //=.
  rewrite relu_forward_out. apply: relu_out_RQ; first exact: rats_rel.
  by constructor; [split| constructor].
Qed.

Lemma relu_shape_pos widths th batch : relu_shape_ok widths th batch = true ->
  rats_pos th = true.
Proof. by rewrite /relu_shape_ok => /andP [/andP [/andP [_ ->] _] _]. Qed.

(** [check_relu_differ]: the two parameter vectors give different outputs over Q at [x]. *)
Theorem relu_differ_meaning inst th2 x : check_relu_differ inst th2 x = true ->
  relu_fun inst (ri_theta inst) x <> relu_fun inst th2 x.
Proof.
  rewrite /check_relu_differ => /andP [/andP [/andP [/andP [H1 H2] _] /Z.ltb_lt Hx] Hne].
  move: Hne.
  rewrite (RQ_qeq_all _ _ _ _ (relu_eval_RQ inst _ x (relu_shape_pos _ _ _ H1) Hx)
                                (relu_eval_RQ inst _ x (relu_shape_pos _ _ _ H2) Hx)).
  by move=> /negP Hne E; apply: Hne; rewrite E.
Qed.
