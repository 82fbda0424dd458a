(** What an affine-symmetry certificate means (issue 24): for an activation [rho : R -> R]
    of Coq's real numbers (the standard library's [Reals]: [tanh], [exp], [atan], [sin],
    [Rabs], [Rmax], [PI]), an element [(a, b, g, d)] of its affine-symmetry group is the
    identity [rho (a x + b) = g rho(x) + d] for every real [x] ([affine_symmetry] below).

    Each certificate states one theorem per listed element, with the activation written
    out in these terms, and proves it by one lemma of this file (micromega's pattern: an
    [exact]) or, for a polynomial activation, by [field] on the expanded identity. Plain
    Coq: no MathComp, no NNCert kernel; nothing here is computed by the VM.

    [erf] has no definition in Coq's standard library: its certificates prove the element
    from the hypothesis that [erf] is odd, which the claim cites (math.md §4); nothing else
    is assumed. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** [(a, b, g, d)] is an affine symmetry of [rho]: [rho (a x + b) = g rho(x) + d] on all
    of [R]. *)
Definition affine_symmetry (rho : R -> R) (a b g d : R) : Prop :=
  forall x : R, rho (a * x + b) = g * rho x + d.

(** The activations named by the certificates, over [R] (docs/math.md §4). *)
Definition logistic (x : R) : R := 1 / (1 + exp (- x)).
Definition softsign (x : R) : R := x / (1 + Rabs x).
Definition relu (x : R) : R := Rmax 0 x.
Definition xtanh (x : R) : R := x * tanh x.

(** The identity element, for every function. *)
Lemma affsym_identity : forall rho, affine_symmetry rho (IZR 1) (IZR 0) (IZR 1) (IZR 0).
Proof.
  intros rho x. replace (IZR 1 * x + IZR 0) with x by ring. ring.
Qed.

(** An odd function has the element [(-1, 0, -1, 0)]. *)
Lemma affsym_odd : forall rho, (forall x, rho (- x) = - rho x) ->
  affine_symmetry rho (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).
Proof.
  intros rho H x. replace (IZR (-1) * x + IZR 0) with (- x) by ring. rewrite H. ring.
Qed.

(** An even function has the element [(-1, 0, 1, 0)]. *)
Lemma affsym_even : forall rho, (forall x, rho (- x) = rho x) ->
  affine_symmetry rho (IZR (-1)) (IZR 0) (IZR 1) (IZR 0).
Proof.
  intros rho H x. replace (IZR (-1) * x + IZR 0) with (- x) by ring. rewrite H. ring.
Qed.

(** [tanh = sinh / cosh] (Rtrigo_def) is odd: [cosh x > 0]. *)
Lemma tanh_odd : forall x, tanh (- x) = - tanh x.
Proof.
  intros x. unfold tanh, sinh, cosh. rewrite Ropp_involutive.
  pose proof (exp_pos x). pose proof (exp_pos (- x)). field. lra.
Qed.

Lemma affsym_tanh : affine_symmetry tanh (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).
Proof. exact (affsym_odd tanh tanh_odd). Qed.

(** [atan] (Ratan) is odd: the standard library's [atan_opp]. *)
Lemma affsym_atan : affine_symmetry atan (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).
Proof. exact (affsym_odd atan atan_opp). Qed.

(** [logistic (- x) = 1 - logistic x], from [exp (- x) = / exp x] (Rpower's [exp_Ropp]). *)
Lemma affsym_logistic : affine_symmetry logistic (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 1).
Proof.
  intros x. replace (IZR (-1) * x + IZR 0) with (- x) by ring.
  unfold logistic. rewrite Ropp_involutive, exp_Ropp.
  pose proof (exp_pos x) as He. pose proof (Rinv_0_lt_compat _ He) as Hi.
  field. repeat split; apply Rgt_not_eq; lra.
Qed.

(** [softsign x = x / (1 + |x|)] is odd. *)
Lemma softsign_odd : forall x, softsign (- x) = - softsign x.
Proof.
  intros x. unfold softsign. rewrite Rabs_Ropp.
  pose proof (Rabs_pos x). field. lra.
Qed.

Lemma affsym_softsign : affine_symmetry softsign (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).
Proof. exact (affsym_odd softsign softsign_odd). Qed.

(** [x tanh x] is even. *)
Lemma xtanh_even : forall x, xtanh (- x) = xtanh x.
Proof. intros x. unfold xtanh. rewrite tanh_odd. ring. Qed.

Lemma affsym_xtanh : affine_symmetry xtanh (IZR (-1)) (IZR 0) (IZR 1) (IZR 0).
Proof. exact (affsym_even xtanh xtanh_even). Qed.

(** The family [(l, 0, l, 0)], [l > 0], of [relu = max(0, .)]: [max(0, l x) = l max(0, x)]
    (Rbasic_fun's [RmaxRmult]). *)
Lemma affsym_relu : forall l, 0 < l -> affine_symmetry relu l (IZR 0) l (IZR 0).
Proof.
  intros l Hl x. unfold relu. rewrite Rplus_0_r, Rplus_0_r.
  rewrite <- RmaxRmult by lra. rewrite Rmult_0_r. reflexivity.
Qed.

(** [sin]: the period [2 pi], the odd symmetry, and the two reflections through [pi]
    (Rtrigo1's [sin_period], [sin_neg], [neg_sin], [sin_PI_x]). *)
Lemma affsym_sin_period : affine_symmetry sin (IZR 1) (IZR 2 * PI) (IZR 1) (IZR 0).
Proof.
  intros x. replace (IZR 1 * x + IZR 2 * PI) with (x + 2 * INR 1 * PI)
    by (simpl INR; ring).
  rewrite sin_period. ring.
Qed.

Lemma affsym_sin_odd : affine_symmetry sin (IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).
Proof. exact (affsym_odd sin sin_neg). Qed.

Lemma affsym_sin_shift : affine_symmetry sin (IZR 1) PI (IZR (-1)) (IZR 0).
Proof.
  intros x. replace (IZR 1 * x + PI) with (x + PI) by ring. rewrite neg_sin. ring.
Qed.

Lemma affsym_sin_reflect : affine_symmetry sin (IZR (-1)) PI (IZR 1) (IZR 0).
Proof.
  intros x. replace (IZR (-1) * x + PI) with (PI - x) by ring. rewrite sin_PI_x. ring.
Qed.
