(** Soundness lemmas of the boolean checkers: what [= true] means as a proposition.
    Compiled with the library, so every bundle's coqc run re-checks these proofs. *)
From Coq Require Import ZArith List Bool Uint63 Lia Znumtheory.
From NNCert Require Import Lists Arith Net RankCore Rank.
Import ListNotations.
Open Scope Z_scope.

(** [is_unit_row k row = true] means [row] is the unit vector [e_k]. *)
Lemma is_unit_row_sound : forall row k,
  is_unit_row k row = true ->
  (k < length row)%nat /\ nth k row 0%uint63 = 1%uint63 /\
  (forall j, j <> k -> nth j row 0%uint63 = 0%uint63).
Proof.
  induction row as [| x row IH]; intros k H; cbn in H; [discriminate H|].
  destruct k as [| k].
  - apply andb_prop in H as [Hx Hz]. apply Uint63.eqb_spec in Hx. subst x.
    split; [simpl; lia|]. split; [reflexivity|].
    intros j Hj. destruct j as [| j]; [contradiction|]. simpl.
    clear IH Hj. revert j. induction row as [| y row IHr]; intros j; simpl in *.
    + destruct j; reflexivity.
    + apply andb_prop in Hz as [Hy Hz]. apply Uint63.eqb_spec in Hy.
      destruct j; [exact Hy| apply IHr; exact Hz].
  - apply andb_prop in H as [Hx Hr]. apply Uint63.eqb_spec in Hx. subst x.
    destruct (IH k Hr) as [Hlen [Hk Hj]].
    split; [simpl; lia|]. split; [exact Hk|].
    intros j Hjk. destruct j as [| j]; [reflexivity|]. simpl. apply Hj. lia.
Qed.

(** [rat_inv_ok p (num, den) inv = true] means [den > 0] and [den * inv = 1 (mod p)]. *)
Lemma rat_inv_ok_sound : forall p r inv,
  p <> 0 -> rat_inv_ok p r inv = true -> 0 < snd r /\ (snd r * inv) mod p = 1.
Proof.
  intros p r inv Hp H. unfold rat_inv_ok in H.
  apply andb_prop in H as [Hd Hm]. apply Z.ltb_lt in Hd. apply Z.eqb_eq in Hm.
  split; [exact Hd|]. rewrite Z.mul_mod by exact Hp. exact Hm.
Qed.

(** [identity_rows] checks every row: row [j] of [M] times [V] is [e_(i+j)]. *)
Lemma identity_rows_sound : forall p r M V i,
  identity_rows p r M V i = true ->
  forall j row, nth_error M j = Some row -> is_unit_row (i + j) (combo_mod p r row V) = true.
Proof.
  intros p r M V. induction M as [| m M IH]; intros i H j row Hj.
  - destruct j; discriminate.
  - simpl in H. apply andb_prop in H as [Hm HM]. destruct j as [| j].
    + simpl in Hj. injection Hj as <-. rewrite Nat.add_0_r. exact Hm.
    + simpl in Hj. rewrite <- Nat.add_succ_comm. exact (IH (S i) HM j row Hj).
Qed.

(** [check_inverse p r M V = true]: both are [r x r] and every row [j] of [M mod p] times
    [V mod p] is the unit vector [e_j], i.e. [M V = I (mod p)]. *)
Lemma check_inverse_sound : forall p r M V,
  check_inverse p r M V = true ->
  length M = r /\ length V = r /\
  forall j row, nth_error (reduce_rows p M) j = Some row ->
    is_unit_row j (combo_mod (Uint63.of_Z p) r row (reduce_int_rows (Uint63.of_Z p) V))
    = true.
Proof.
  intros p r M V H. unfold check_inverse in H.
  apply andb_prop in H as [H Hid]. apply andb_prop in H as [H _].
  apply andb_prop in H as [H HV]. apply andb_prop in H as [HM _].
  apply Nat.eqb_eq in HM. apply Nat.eqb_eq in HV.
  split; [exact HM|]. split; [exact HV|].
  intros j row Hj. exact (identity_rows_sound _ _ _ _ _ Hid j row Hj).
Qed.

(** [gcd q (prod qs) = 1] when [q] is coprime to every modulus of [qs]. *)
Lemma coprime_to_all_prod : forall q qs,
  coprime_to_all q qs = true -> Z.gcd q (prod_z qs) = 1.
Proof.
  intros q qs; induction qs as [| q' qs IH]; simpl; intros H.
  - apply Z.gcd_1_r.
  - apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1.
    apply Zgcd_1_rel_prime. apply rel_prime_mult.
    + apply Zgcd_1_rel_prime. exact H1.
    + apply Zgcd_1_rel_prime. exact (IH H2).
Qed.

(** Pairwise coprime moduli that all divide [v]: their product divides [v]. *)
Lemma moduli_ok_divide : forall qs v,
  moduli_ok qs = true -> (forall q, In q qs -> v mod q = 0) -> (prod_z qs | v).
Proof.
  induction qs as [| q qs IH]; simpl; intros v Hok Hv.
  - apply Z.divide_1_l.
  - apply andb_prop in Hok as [Hok Hrest]. apply andb_prop in Hok as [Hp Hc].
    unfold p_ok in Hp. apply andb_prop in Hp as [Hp1 _]. apply Z.ltb_lt in Hp1.
    assert (Hq : (q | v)) by (apply Z.mod_divide; [lia | apply Hv; left; reflexivity]).
    assert (Hr : (prod_z qs | v)) by (apply IH; [exact Hrest | intros q' Hq'; apply Hv; right; exact Hq']).
    destruct Hq as [k Hk]. subst v.
    assert (Hg : Z.gcd (prod_z qs) q = 1) by (rewrite Z.gcd_comm; exact (coprime_to_all_prod q qs Hc)).
    assert (Hk' : (prod_z qs | k)) by (apply (Z.gauss _ q _); [rewrite Z.mul_comm; exact Hr | exact Hg]).
    destruct Hk' as [j Hj]. subst k. exists j. ring.
Qed.

(** Exactness from residues (RankCore.v, [moduli_ok]): an integer that vanishes modulo
    pairwise coprime moduli whose product exceeds its absolute value is zero. This is the step
    from [kills_mod] at every modulus and [bound <? prod_z qs] to an exact zero in the
    upper-bound checks ([mlp_tangents_kill], [resnet_tangents_kill]). *)
Theorem moduli_exact : forall qs v,
  moduli_ok qs = true -> (forall q, In q qs -> v mod q = 0) -> Z.abs v < prod_z qs -> v = 0.
Proof.
  intros qs v Hok Hv Hb.
  destruct (Z.eq_dec v 0) as [| Hnz]; [assumption|].
  pose proof (moduli_ok_divide qs v Hok Hv) as Hd.
  pose proof (Zdivide_bounds _ _ Hd Hnz) as Hle.
  assert (0 <= prod_z qs) by (pose proof (Z.abs_nonneg v); lia).
  rewrite Z.abs_eq in Hle by assumption. lia.
Qed.

(** [all_zero_q xs = true] means every fraction in [xs] has numerator zero. *)
Lemma all_zero_q_sound : forall xs q, all_zero_q xs = true -> In q xs -> fst q = 0.
Proof.
  induction xs as [| x xs IH]; intros q H Hq; [destruct Hq|].
  simpl in H. apply andb_prop in H as [Hx Hxs]. apply Z.eqb_eq in Hx.
  destruct Hq as [<- | Hq]; [exact Hx| exact (IH q Hxs Hq)].
Qed.
