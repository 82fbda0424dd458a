(** What the MLP-identifiability fact of a certificate means (issue 24): the hypotheses of the
    cited identifiability theorem for a bias-free MLP with integer weights (math.md §1, §4),
    stated over the weight matrices and over Coq's rationals [Q] for sigma (QArith, no axioms),
    and derived from the kernel's [check_mlp_hypotheses] (Compind.v) once here.

    The weights: [theta] read row-major, layer by layer ([layers]: layer [l] is the
    [d_l x d_(l-1)] matrix of its rows, the layout of Net.v). The hypotheses:
    - at least one hidden layer, positive widths, [#params] weights;
    - every hidden neuron is active and not redundant ([neurons_ok]): its incoming weight row is
      nonzero, the rows of its layer are pairwise distinct, and some outgoing weight (its
      column of the next matrix) is nonzero;
    - sigma: positive denominators, [sigma(0) = 0], degree [r >= rmin] with [a_r <> 0]
      (CompindMeaning.v's [coef], [top] over [Q]).
    The theorem's conclusion (the network is identifiable up to its symmetries) stays cited. *)
From Coq Require Import ZArith QArith List Bool Lia.
From NNCert Require Import Lists Arith Net Rank CheckerSound Compind CompindSound TermsMeaning.
From NNCert Require Import CompindMeaning.
Import ListNotations.

(** * The statement *)

(** The weight matrices of the bias-free MLP with widths [widths] and weights [theta]. *)
Definition layers (widths : list nat) (theta : list Z) : list (list (list Z)) :=
  match widths with
  | [] => []
  | d0 :: rest => split_layers d0 rest theta
  end.

(** Some entry of [v] is nonzero. *)
Definition nonzero_vec (v : list Z) : Prop :=
  exists j, (j < length v)%nat /\ nth j v 0%Z <> 0%Z.

(** The neurons of the layer with incoming matrix [W1] and outgoing matrix [W2]: each has a
    nonzero incoming row, no two have the same row, and each has a nonzero outgoing weight. *)
Definition neurons_ok (W1 W2 : list (list Z)) : Prop :=
  (forall i, (i < length W1)%nat -> nonzero_vec (nth i W1 [])) /\
  (forall i i', (i < i')%nat -> (i' < length W1)%nat -> nth i W1 [] <> nth i' W1 []) /\
  (forall i, (i < length W1)%nat ->
     exists k, (k < length W2)%nat /\ nth i (nth k W2 []) 0%Z <> 0%Z).

(** The hypotheses of the identifiability theorem for the MLP and the activation [sigma]
    (coefficients [(num, den)], lowest degree first). *)
Definition mlp_hypotheses (widths : list nat) (sigma : list (Z * Z)) (theta : list Z)
    (rmin : nat) : Prop :=
  (3 <= length widths)%nat /\ Forall (fun d => (0 < d)%nat) widths /\
  length theta = n_params widths false /\
  (forall l, (S l < length (layers widths theta))%nat ->
     neurons_ok (nth l (layers widths theta) []) (nth (S l) (layers widths theta) [])) /\
  Forall (fun a => (0 < snd a)%Z) sigma /\
  coef (map to_Q sigma) 0 == 0 /\ ~ coef (map to_Q sigma) (top (map to_Q sigma)) == 0 /\
  (rmin <= top (map to_Q sigma))%nat.

(** * The kernel's Boolean helpers *)

Lemma nth_z_nth xs j : nth_z xs j = nth j xs 0%Z.
Proof. revert j; induction xs as [| x xs IH]; intros [| j]; simpl; auto. Qed.

Lemma is_zero_row_false row : is_zero_row row = false -> nonzero_vec row.
Proof.
  induction row as [| x row IH]; simpl; [discriminate|].
  intros H. destruct (Z.eqb_spec x 0) as [Hx | Hx].
  - destruct (IH H) as (j & Hj & Hn). exists (S j). simpl. split; [lia | exact Hn].
  - exists O. simpl. split; [lia | exact Hx].
Qed.

Lemma any_zero_row_false W : any_zero_row W = false ->
  forall i, (i < length W)%nat -> nonzero_vec (nth i W []).
Proof.
  induction W as [| r W IH]; simpl; intros H i Hi; [lia|].
  apply orb_false_elim in H as [Hr HW].
  destruct i as [| i]; [exact (is_zero_row_false _ Hr) | apply IH; [exact HW | lia]].
Qed.

Lemma zlist_eq_refl a : zlist_eq a a = true.
Proof. induction a as [| x a IH]; simpl; [reflexivity | rewrite Z.eqb_refl; exact IH]. Qed.

Lemma row_in_false r W : row_in r W = false -> forall i, (i < length W)%nat -> nth i W [] <> r.
Proof.
  induction W as [| w W IH]; simpl; intros H i Hi; [lia|].
  apply orb_false_elim in H as [Hw HW].
  destruct i as [| i]; simpl.
  - intros E. subst w. rewrite zlist_eq_refl in Hw. discriminate.
  - apply IH; [exact HW | lia].
Qed.

Lemma any_dup_row_false W : any_dup_row W = false ->
  forall i i', (i < i')%nat -> (i' < length W)%nat -> nth i W [] <> nth i' W [].
Proof.
  induction W as [| r W IH]; simpl; intros H i i' Hii' Hi'; [lia|].
  apply orb_false_elim in H as [Hr HW].
  destruct i as [| i]; destruct i' as [| i']; try lia.
  - simpl. intros E. apply (row_in_false _ _ Hr i'); [lia | symmetry; exact E].
  - simpl. apply IH; [exact HW | lia | lia].
Qed.

Lemma nth_column W j k : (k < length W)%nat -> nth k (column W j) 0%Z = nth j (nth k W []) 0%Z.
Proof.
  unfold column. revert k; induction W as [| r W IH]; intros [| k] Hk; simpl in *; try lia.
  - apply nth_z_nth.
  - apply IH. lia.
Qed.

Lemma any_zero_col_from_false W j count : any_zero_col_from W j count = false ->
  forall i, (j <= i < j + count)%nat ->
    exists k, (k < length W)%nat /\ nth i (nth k W []) 0%Z <> 0%Z.
Proof.
  revert j; induction count as [| c IH]; simpl; intros j H i Hi; [lia|].
  apply orb_false_elim in H as [Hc HW].
  destruct (Nat.eq_dec i j) as [-> | Hne].
  - destruct (is_zero_row_false _ Hc) as (k & Hk & Hn).
    assert (Hk' : (k < length W)%nat) by (unfold column in Hk; rewrite map_length in Hk; exact Hk).
    exists k. split; [exact Hk'|]. rewrite <- nth_column by exact Hk'. exact Hn.
  - apply (IH (S j) HW i). lia.
Qed.

Lemma hidden_ok_sound Ws : hidden_ok Ws = true ->
  forall l, (S l < length Ws)%nat -> neurons_ok (nth l Ws []) (nth (S l) Ws []).
Proof.
  induction Ws as [| W1 Ws IH]; simpl; intros H l Hl; [lia|].
  destruct Ws as [| W2 Ws']; simpl in Hl; [lia|].
  apply andb_prop in H as [H Hrest]. apply andb_prop in H as [H Hcol].
  apply andb_prop in H as [Hrow Hdup].
  apply negb_true_iff in Hrow, Hdup, Hcol.
  destruct l as [| l].
  - simpl. split; [exact (any_zero_row_false _ Hrow)|]. split.
    + intros i i' Hii' Hi'. exact (any_dup_row_false _ Hdup i i' Hii' Hi').
    + intros i Hi. apply (any_zero_col_from_false _ _ _ Hcol). lia.
  - apply (IH Hrest l). simpl. lia.
Qed.

Lemma all_pos_sound ws : all_pos ws = true -> Forall (fun d => (0 < d)%nat) ws.
Proof.
  induction ws as [| w ws IH]; simpl; intros H; [constructor|].
  apply andb_prop in H as [Hw Hws]. apply Nat.ltb_lt in Hw. constructor; auto.
Qed.

Lemma rats_pos_sound rs : rats_pos rs = true -> Forall (fun a => (0 < snd a)%Z) rs.
Proof.
  induction rs as [| r rs IH]; simpl; intros H; [constructor|].
  apply andb_prop in H as [Hr Hrs]. apply Z.ltb_lt in Hr. constructor; auto.
Qed.

(** * The theorem *)

Theorem mlp_hypotheses_meaning widths sigma theta rmin :
  check_mlp_hypotheses widths sigma theta rmin = true -> mlp_hypotheses widths sigma theta rmin.
Proof.
  unfold check_mlp_hypotheses, check_not_subnetwork. intros H.
  apply andb_prop in H as [H Hr]. apply andb_prop in H as [H Ha].
  apply andb_prop in H as [H A0]. apply andb_prop in H as [H Hpos].
  apply andb_prop in H as [H Hhid]. apply andb_prop in H as [H Hlen].
  apply andb_prop in H as [H3 Hall].
  apply Nat.leb_le in H3. apply Nat.eqb_eq in Hlen. apply Nat.leb_le in Hr.
  apply negb_true_iff in A0. unfold nonzero_q in A0, Ha.
  apply negb_false_iff in A0. apply Z.eqb_eq in A0.
  apply negb_true_iff in Ha. apply Z.eqb_neq in Ha.
  unfold mlp_hypotheses. rewrite top_map. unfold nsub in *.
  split; [exact H3|]. split; [exact (all_pos_sound _ Hall)|]. split; [exact Hlen|].
  split.
  { unfold layers. destruct widths as [| d0 rest]; [discriminate|].
    exact (hidden_ok_sound _ Hhid). }
  split; [exact (rats_pos_sound _ Hpos)|].
  split; [rewrite coef_map; apply to_Q_zero; exact A0|].
  split; [rewrite coef_map; apply to_Q_nonzero; [apply rats_pos_nth_q; exact Hpos | exact Ha]|].
  exact Hr.
Qed.
