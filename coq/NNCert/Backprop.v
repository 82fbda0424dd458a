(** Reverse mode computes derivatives (MathComp 1.15): over any commutative ring [R], entry [j]
    of the kernel's reverse-mode row [d f(x)[k] / d theta] (Net.v, ReLU.v) is the coefficient of
    [t] of the network evaluated over [{poly R}] at the parameters [theta + t e_j] ([line]).
    Instantiated at [R = rat] this is the Jacobian entry of RankMeaning.v. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian RankMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg poly.
Import GRing.Theory.
Local Open Scope ring_scope.

Section Line.
Variable R : ringType.

(** The parameters [th + t e_j] as polynomials in [t] ([i]: the index of the head). *)
Fixpoint line (th : list R) (i j : nat) : list {poly R} :=
  match th with
  | nil => nil
  | v :: th' => (v%:P + (if Nat.eqb i j then 'X else 0)) :: line th' i.+1 j
  end.

End Line.
