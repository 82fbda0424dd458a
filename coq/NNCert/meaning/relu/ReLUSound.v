(** Soundness lemmas of the ReLU checkers (coq/NNCert/kernel/ReLU.v): what [= true] means, and the
    positive homogeneity of ReLU behind the scaling tangents and the symmetry certificates.
    Compiled with the library, so every bundle's coqc run re-checks these proofs. *)
From Coq Require Import ZArith List Bool Uint63 Lia Reals Lra.
From NNCert Require Import Lists Arith Net RankCore Rank ReLU.
Import ListNotations.

(** [check_relu_rank_lower = true] unpacks into: the instance and batch are well formed, no
    batch point lies on a bent hyperplane (exact), and the rows recomputed mod p with the
    activation patterns of the batch fixed pass the shared rank core. *)
Lemma check_relu_rank_lower_sound : forall inst w r,
  check_relu_rank_lower inst w r = true ->
  batch_nonzero (ri_widths inst) (ri_theta inst) (rl_batch w) = true /\
  check_rank_core (rl_p w) (length (ri_theta inst)) (length (rl_batch w))
    (last_width (ri_widths inst)) (rl_rows w)
    (relu_rows_mod (rl_p w) (ri_widths inst)
       (batch_patterns (ri_widths inst) (ri_theta inst) (rl_batch w))
       (rats_mod (rl_p w) (ri_theta inst) (rl_theta_inv w))
       (acts_mod (rl_p w) (rl_batch w) (rl_batch_inv w)) (rl_rows w))
    (rl_cols w) r = true.
Proof.
  intros inst w r H. unfold check_relu_rank_lower in H.
  repeat match goal with
         | H : (_ && _) = true |- _ => apply andb_prop in H as [H ?]
         end.
  repeat match goal with
         | H : Nat.eqb _ _ = true |- _ => apply Nat.eqb_eq in H
         end.
  repeat split; assumption.
Qed.

(** [batch_nonzero = true]: at every batch point every hidden pre-activation, recomputed
    exactly, has a nonzero numerator. *)
Lemma batch_nonzero_sound : forall widths th batch x pre a,
  batch_nonzero widths th batch = true -> In x batch ->
  In pre (snd (relu_eval widths th x)) -> In a pre -> fst a <> 0%Z.
Proof.
  intros widths th batch x pre a H Hx Hpre Ha.
  unfold batch_nonzero in H. rewrite forallb_forall in H.
  specialize (H x Hx). unfold pres_nonzero in H. rewrite forallb_forall in H.
  specialize (H pre Hpre). unfold all_nonzero_q in H. rewrite forallb_forall in H.
  specialize (H a Ha). apply negb_true_iff in H. apply Z.eqb_neq in H. exact H.
Qed.

(** [nodup_nat xs = true] means [xs] has no repeated entry. *)
Lemma mem_nat_sound : forall i xs, mem_nat i xs = false -> ~ In i xs.
Proof.
  intros i xs. induction xs as [| x xs IH]; intros H Hin; [destruct Hin|].
  simpl in H. apply orb_false_iff in H as [Hx Hxs]. apply Nat.eqb_neq in Hx.
  destruct Hin as [<- | Hin]; [exact (Hx eq_refl)| exact (IH Hxs Hin)].
Qed.

Lemma nodup_nat_sound : forall xs, nodup_nat xs = true -> NoDup xs.
Proof.
  induction xs as [| x xs IH]; intros H; [constructor|].
  simpl in H. apply andb_prop in H as [Hx Hxs]. apply negb_true_iff in Hx.
  constructor; [exact (mem_nat_sound _ _ Hx)| exact (IH Hxs)].
Qed.

Lemma all_lt_sound : forall k xs x, all_lt k xs = true -> In x xs -> (x < k)%nat.
Proof.
  intros k xs. induction xs as [| y xs IH]; intros x H Hx; [destruct Hx|].
  simpl in H. apply andb_prop in H as [Hy Hxs]. apply Nat.ltb_lt in Hy.
  destruct Hx as [<- | Hx]; [exact Hy| exact (IH x Hxs Hx)].
Qed.

(** [is_perm n xs = true]: [xs] lists [n] distinct naturals below [n], i.e. a permutation of
    [0, ..., n - 1]. *)
Lemma is_perm_sound : forall n xs,
  is_perm n xs = true -> length xs = n /\ NoDup xs /\ (forall x, In x xs -> (x < n)%nat).
Proof.
  intros n xs H. unfold is_perm in H.
  apply andb_prop in H as [H Hnd]. apply andb_prop in H as [Hlen Hlt].
  apply Nat.eqb_eq in Hlen.
  split; [exact Hlen|]. split; [exact (nodup_nat_sound _ Hnd)|].
  intros x Hx. exact (all_lt_sound _ _ _ Hlt Hx).
Qed.

(** [qle a b = true] is [a <= b] for rationals with positive denominators. *)
Lemma qle_sound : forall a b,
  (0 < snd a)%Z -> (0 < snd b)%Z -> qle a b = true ->
  (IZR (fst a) / IZR (snd a) <= IZR (fst b) / IZR (snd b))%R.
Proof.
  intros [an ad] [bn bd] Ha Hb H. simpl in *. unfold qle in H. simpl in H.
  apply Z.leb_le in H.
  apply IZR_lt in Ha. apply IZR_lt in Hb. apply IZR_le in H.
  rewrite !mult_IZR in H.
  apply (Rmult_le_reg_r (IZR ad * IZR bd)%R); [apply Rmult_lt_0_compat; lra|].
  replace (IZR an / IZR ad * (IZR ad * IZR bd))%R with (IZR an * IZR bd)%R by (field; lra).
  replace (IZR bn / IZR bd * (IZR ad * IZR bd))%R with (IZR bn * IZR ad)%R by (field; lra).
  exact H.
Qed.

Section Homogeneity.
Local Open Scope R_scope.

(** ReLU on the reals. *)
Definition relu (a : R) : R := Rmax 0 a.

(** Positive homogeneity: [ReLU(lam a) = lam ReLU(a)] for [lam > 0]. *)
Lemma relu_pos_homogeneous : forall lam a, 0 < lam -> relu (lam * a) = lam * relu a.
Proof.
  intros lam a Hl. unfold relu, Rmax.
  destruct (Rle_dec 0 (lam * a)) as [H1 | H1]; destruct (Rle_dec 0 a) as [H2 | H2].
  - reflexivity.
  - exfalso. apply H2. apply (Rmult_le_reg_l lam); [exact Hl|]. lra.
  - exfalso. apply H1. apply Rmult_le_pos; lra.
  - ring.
Qed.

(** The positive scaling of one hidden neuron (incoming weights and bias times [lam > 0],
    outgoing weight divided by [lam]) leaves its contribution [v ReLU(w . x + b)] unchanged:
    the symmetry whose tangents bound the rank from above, and whose group elements the
    equivalence certificates check. *)
Lemma neuron_scaling_invariance : forall lam v pre,
  0 < lam -> (v / lam) * relu (lam * pre) = v * relu pre.
Proof.
  intros lam v pre Hl. rewrite relu_pos_homogeneous by exact Hl. field. lra.
Qed.

End Homogeneity.
