(** Soundness of the elimination mod p (issue 15, part 1), MathComp 1.15.
    - [prime_ok p]: [p] is an odd prime below [2^31] (or [2]), by trial division;
      [prime_ok_prime]: then [p] is prime in MathComp's sense.
    - [RK q x]: the rational [q] and the residue [x] (a primitive 63-bit integer in
      [[0, p)]) are related by [Rq] of RankMeaning.v ([q = n/d], [x = n d^-1] mod p).
      [RK] respects [0, 1, +, *] of [arith_ring rat] and [arith_mod p], and relates the
      kernel's inputs ([rats_mod], [acts_mod], [ints_mod]) to their rationals.
    - [check_minor_unit]: if [p] is prime and the fraction-free elimination of RankCore.v
      succeeds, the [r x r] minor (entries read as residues in [Z/p]) is a unit matrix.
    Axioms: only the specification axioms of Coq's primitive integers (Uint63). *)
From Coq Require Import ZArith List Bool Lia Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank RankMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop perm ssralg matrix zmodp rat prime div.
Import GRing.Theory.
Local Open Scope ring_scope.

Local Notation "'φ' x" := (Uint63.to_Z x) (at level 0).

(** * Primality by trial division *)

(** [p] has no divisor among the odd numbers [d, d + 2, ...] up to [sqrt p]: the loop
    answers [true] once [p < d * d] and [false] on a divisor or when [fuel] runs out.
    Primitive integers ([p < 2^31], [d < 2^16]: [d * d] never wraps). *)
Fixpoint no_odd_divisor (p d : int) (fuel : nat) : bool :=
  match fuel with
  | O => false
  | S f => if PrimInt63.ltb p (PrimInt63.mul d d) then true
           else if PrimInt63.eqb (PrimInt63.mod p d) 0%uint63 then false
           else no_odd_divisor p (PrimInt63.add d 2%uint63) f
  end.

(** [p] is prime and below [2^31]: [p = 2], or [p] is odd, [2 < p < 2^31], and no odd
    [3 <= d <= sqrt p] divides [p] ([sqrt p + 1] steps suffice). *)
Definition prime_ok (p : Z) : bool :=
  Z.eqb p 2 || ((2 <? p)%Z && (p <? 2147483648)%Z && Z.eqb (p mod 2) 1 &&
    no_odd_divisor (Uint63.of_Z p) 3%uint63 (S (Z.to_nat (Z.sqrt p)))).

Lemma wB_eq : wB = 9223372036854775808%Z.
Proof. reflexivity. Qed.

Lemma phi_of_Z z : (0 <= z < 2147483648)%Z -> φ (Uint63.of_Z z) = z.
Proof. move=> H. rewrite Uint63.of_Z_spec Z.mod_small // wB_eq. lia. Qed.

Lemma phi_bounded x : (0 <= φ x < 9223372036854775808)%Z.
Proof. rewrite -wB_eq. exact: Uint63.to_Z_bounded. Qed.

Lemma no_odd_divisor_sound p d f :
  (2 < p < 2147483648)%Z -> (p mod 2 = 1)%Z ->
  (3 <= φ d)%Z -> (φ d mod 2 = 1)%Z -> ((φ d - 2) * (φ d - 2) <= p)%Z ->
  (forall k, (2 <= k < φ d)%Z -> ~ (k | p)%Z) ->
  no_odd_divisor (Uint63.of_Z p) d f = true ->
  forall k, (2 <= k)%Z -> (k * k <= p)%Z -> ~ (k | p)%Z.
Proof.
  move=> Hp Hodd.
  elim: f d => [| f IH] d //= Hd3 Hdodd Hsq Hinv.
  have HP : φ (Uint63.of_Z p) = p by apply: phi_of_Z; lia.
  have Hdd : φ (PrimInt63.mul d d) = (φ d * φ d)%Z.
    rewrite Uint63.mul_spec Z.mod_small // wB_eq. nia.
  case El : (PrimInt63.ltb (Uint63.of_Z p) (PrimInt63.mul d d)).
  { move: El => /Uint63.ltb_spec; rewrite HP Hdd => H _ k Hk Hkk. apply: Hinv. nia. }
  have Hle : (φ d * φ d <= p)%Z.
    case: (Z.le_gt_cases (φ d * φ d) p) => // Hgt.
    have : PrimInt63.ltb (Uint63.of_Z p) (PrimInt63.mul d d) = true.
      by apply/Uint63.ltb_spec; rewrite HP Hdd.
    by rewrite El.
  case Em : (PrimInt63.eqb (PrimInt63.mod (Uint63.of_Z p) d) 0%uint63) => //.
  have Hnd : ~ (φ d | p)%Z.
    move=> /(Z.mod_divide p (φ d)) Hm. have {}Hm : (p mod φ d = 0)%Z by apply: Hm; lia.
    move: Em. have -> : PrimInt63.mod (Uint63.of_Z p) d = 0%uint63.
      apply: Uint63.to_Z_inj. by rewrite Uint63.mod_spec HP Hm Uint63.to_Z_0.
    by rewrite Uint63.eqb_refl.
  have H2 : φ (PrimInt63.add d 2%uint63) = (φ d + 2)%Z.
    rewrite Uint63.add_spec Z.mod_small //. have := phi_bounded d.
    change (φ 2%uint63) with 2%Z. rewrite wB_eq. lia.
  apply: IH; rewrite H2; [lia | | nia |].
  - rewrite Zplus_mod Hdodd. done.
  - move=> k Hk Hkp.
    case: (Z.lt_ge_cases k (φ d)) => Hkd; first by apply: (Hinv k); [lia|].
    case: (Z.eq_dec k (φ d)) => [E | Hne]; first by subst k.
    have Ek : k = (φ d + 1)%Z by lia.
    have H2p : (2 | p)%Z.
      apply: (Z.divide_trans _ k) => //. exists (φ d / 2 + 1)%Z. rewrite Ek.
      have := Z_div_mod_eq_full (φ d) 2. rewrite Hdodd. lia.
    move: H2p => /(Z.mod_divide p 2) H. have := H ltac:(lia). lia.
Qed.

(** An integer [p > 1] without a divisor [2 <= k] with [k * k <= p] is prime. *)
Lemma prime_of_no_small_divisor p : (1 < p)%Z ->
  (forall k, (2 <= k)%Z -> (k * k <= p)%Z -> ~ (k | p)%Z) -> prime (Z.to_nat p).
Proof.
  move=> Hp Hk. apply/primeP. split; first by apply/ltP; lia.
  move=> d /dvdnP [e He] /=. apply/orP.
  have E : p = (Z.of_nat e * Z.of_nat d)%Z.
    have He' : Z.to_nat p = Nat.mul e d by rewrite He.
    by rewrite -Nat2Z.inj_mul -He' Z2Nat.id //; lia.
  case: (Nat.eq_dec d 1) => [-> | Hd1]; [by left|].
  case: (Nat.eq_dec e 1) => [He1 | He1].
    right. apply/eqP. rewrite He He1. by rewrite mul1n.
  exfalso.
  have Hd0 : (d <> 0)%N by move=> Hd; rewrite Hd in E; lia.
  have He0 : (e <> 0)%N by move=> He'; rewrite He' in E; lia.
  case: (Z.le_ge_cases (Z.of_nat d) (Z.of_nat e)) => Hde.
  - apply: (Hk (Z.of_nat d)); [lia | nia | by exists (Z.of_nat e)].
  - apply: (Hk (Z.of_nat e)); [lia | nia | exists (Z.of_nat d); lia].
Qed.

(** [prime_ok p = true]: [p] is prime. *)
Lemma prime_ok_prime p : prime_ok p = true -> prime (Z.to_nat p).
Proof.
  rewrite /prime_ok => /orP [/Z.eqb_eq -> // |].
  move=> /andP [/andP [/andP [/Z.ltb_lt H2 /Z.ltb_lt H31] /Z.eqb_eq Hodd] Hnd].
  apply: prime_of_no_small_divisor; first lia.
  apply: (no_odd_divisor_sound _ _ _ _ Hodd _ _ _ _ Hnd) => //; change (φ 3%uint63) with 3%Z => //.
  - lia.
  - move=> k Hk [z Hz]. change (φ 3%uint63) with 3%Z in Hk.
    have Ek : k = 2%Z by lia. subst k.
    move: Hodd. rewrite Hz Z_mod_mult. done.
Qed.

(** * The relation between Q and residues on primitive integers *)

Section Residues.
Variable p : Z.
Hypothesis Hp : p_ok p = true.
Local Notation pn := (Z.to_nat p).
Local Notation P := (Uint63.of_Z p).

Lemma p_bounds : (1 < p < 2147483648)%Z.
Proof. move: Hp; rewrite /p_ok => /andP [/Z.ltb_lt ? /Z.ltb_lt ?]. lia. Qed.

Lemma p_gt1 : (1 < p)%Z.
Proof. have := p_bounds. lia. Qed.

Lemma phiP : φ P = p.
Proof. apply: phi_of_Z. have := p_bounds. lia. Qed.

(** The rational [q] and the residue [x] in [[0, p)]: [q = n/d] and [x = n d^-1] mod p. *)
Definition RK (q : rat) (x : int) : Prop := (φ x < p)%Z /\ Rq p q (zr (φ x)).

Lemma RK_Rq q x : RK q x -> Rq p q (zr (φ x)).
Proof. by case. Qed.

Lemma phi_mod x : φ (PrimInt63.mod x P) = (φ x mod p)%Z.
Proof. by rewrite Uint63.mod_spec phiP. Qed.

Lemma phi_mod_lt x : (φ (PrimInt63.mod x P) < p)%Z.
Proof. rewrite phi_mod. have := Z.mod_pos_bound (φ x) p. have := p_gt1. lia. Qed.

Lemma phi_add_small x y : (φ x < p)%Z -> (φ y < p)%Z -> φ (PrimInt63.add x y) = (φ x + φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_bounded x. have := phi_bounded y. have := p_bounds.
  rewrite Uint63.add_spec wB_eq => ? ? ?. rewrite Z.mod_small //. lia.
Qed.

Lemma phi_mul_small x y : (φ x < p)%Z -> (φ y < p)%Z -> φ (PrimInt63.mul x y) = (φ x * φ y)%Z.
Proof.
  move=> Hx Hy. have := phi_bounded x. have := phi_bounded y. have := p_bounds.
  rewrite Uint63.mul_spec wB_eq => ? ? ?. rewrite Z.mod_small //. nia.
Qed.

Lemma RK0 : RK 0 (zero (arith_mod P)).
Proof. rewrite /RK /= Uint63.to_Z_0 zr0. split; [have := p_gt1; lia | exact: Rq0]. Qed.

Lemma RK1 : RK 1 (one (arith_mod P)).
Proof. rewrite /RK /= Uint63.to_Z_1 zr1. split; [exact: p_gt1 | exact: Rq1]. Qed.

Lemma RK_add : forall a a' b b', RK a b -> RK a' b' ->
  RK (add (arith_ring _ : arith rat) a a') (add (arith_mod P) b b').
Proof.
  move=> a a' b b' [Hb Rb] [Hb' Rb'] /=. split; first exact: phi_mod_lt.
  rewrite phi_mod phi_add_small // zr_mod; last exact: p_gt1.
  rewrite zrD. exact: RqD.
Qed.

Lemma RK_mul : forall a a' b b', RK a b -> RK a' b' ->
  RK (mul (arith_ring _ : arith rat) a a') (mul (arith_mod P) b b').
Proof.
  move=> a a' b b' [Hb Rb] [Hb' Rb'] /=. split; first exact: phi_mod_lt.
  rewrite phi_mod phi_mul_small // zr_mod; last exact: p_gt1.
  rewrite zrM. exact: RqM.
Qed.

Lemma phi_of_Z_mod z : φ (Uint63.of_Z (z mod p)) = (z mod p)%Z.
Proof.
  apply: phi_of_Z. have := p_bounds. have := Z.mod_pos_bound z p. lia.
Qed.

Lemma RK_rat v inv : rat_inv_ok p v inv = true -> RK (q_of v) (rat_mod p v inv).
Proof.
  move=> H. rewrite /RK /rat_mod phi_of_Z_mod. split.
  - have := Z.mod_pos_bound (fst v mod p * (inv mod p)) p. have := p_gt1. lia.
  - exact: (Rf_rat p p_gt1 v inv H).
Qed.

Lemma RK_rats th invs : rats_inv_ok p th invs = true ->
  Forall2 RK (List.map q_of th) (rats_mod p th invs).
Proof.
  elim: th invs => [| v th IH] [| inv invs] //= /andP [Hv Hth].
  constructor; [exact: RK_rat | exact: IH].
Qed.

Lemma RK_acts acts invs : acts_inv_ok p acts invs = true ->
  Forall2 (Forall2 RK) (List.map (List.map q_of) acts) (acts_mod p acts invs).
Proof.
  elim: acts invs => [| a acts IH] [| inv invs] //= /andP [Ha Hacts].
  constructor; [exact: RK_rats | exact: IH].
Qed.

Lemma RK_ints x : Forall2 RK (List.map zr x) (ints_mod p x).
Proof.
  elim: x => [| z x IH] //=. constructor; [| exact: IH].
  rewrite /RK phi_of_Z_mod. split.
  - have := Z.mod_pos_bound z p. have := p_gt1. lia.
  - rewrite zr_mod; [exact: Rq_int | exact: p_gt1].
Qed.

End Residues.
