(** The scaling symmetry behind the generator's upper-bound tangents, over Coq's reals.
    Kept out of CheckerSound.v so that the files the rank certificates load (UpperSound.v
    imports CheckerSound.v) do not load Coq.Reals: 0.1 s of coqc per rank certificate
    (issue 23). No certificate depends on this file; the library compiles it, so every bundle
    re-checks the proof. *)
From Coq Require Import Reals Field.

Section Scaling.
Local Open Scope R_scope.

(** The scaling symmetry behind the upper-bound tangents: for a monomial activation
    [c t^r], scaling a neuron's incoming weights by [l <> 0] and its outgoing weight by
    [l^-r] leaves its contribution [v * c * (w x)^r] unchanged; differentiating at [l = 1]
    gives the scaling tangent (incoming [w], outgoing [-r v]) used by the generator. *)
Lemma monomial_scaling_invariance : forall (c v w x l : R) (r : nat),
  l <> 0 -> (v * / l ^ r) * (c * (l * w * x) ^ r) = v * (c * (w * x) ^ r).
Proof.
  intros c v w x l r Hl.
  replace (l * w * x) with (l * (w * x)) by ring.
  rewrite Rpow_mult_distr.
  field. apply pow_nonzero. exact Hl.
Qed.

End Scaling.
