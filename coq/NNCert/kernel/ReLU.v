(** ReLU networks [F = A_L o ReLU o ... o ReLU o A_1] (math.md §3): exact evaluation over Q,
    reverse mode with the activation pattern fixed, and the rank, equivalence and symmetry
    checks. Python twin: certify/checker/kernel/relu.py; Lean twin: lean/NNCert/ReLU.lean.
    The layout of theta is that of an MLP with biases: layer by layer, neuron by neuron, the
    incoming weights then the bias. Rationals are unnormalised pairs [(num, den)] with [den > 0]. *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net RankCore Rank.
Import ListNotations.
Open Scope Z_scope.

(** A ReLU network with widths [(n_0, ..., n_L)] at the rational point [theta]. *)
Record relu_instance := {
  ri_widths : list nat;
  ri_theta : list (Z * Z) }.

(** Rank lower-bound witness: prime, batch of rational inputs, inverses mod p of the
    denominators of theta and of the batch, the minor's rows and columns (the kernel
    recomputes the minor and decides its nonsingularity itself). *)
Record relu_lower_witness := {
  rl_p : Z;
  rl_batch : list (list (Z * Z));
  rl_theta_inv : list Z;
  rl_batch_inv : list (list Z);
  rl_rows : list (nat * nat);
  rl_cols : list nat }.

(** * Exact evaluation over Q *)

(** [max(a, 0)] for a rational with positive denominator. *)
Definition relu_q (a : Z * Z) : Z * Z := if 0 <? fst a then a else (0, 1).

(** [relu_q] entrywise. *)
Definition relu_vec_q (hs : list (Z * Z)) : list (Z * Z) := map relu_q hs.

(** [(F(x), hidden pre-activations)] exactly over Q through the layers [rest]. *)
Fixpoint relu_forward (prev : nat) (rest : list nat) (th h : list (Z * Z))
  : list (Z * Z) * list (list (Z * Z)) :=
  match rest with
  | [] => (h, [])
  | d :: rest' =>
      let pre := layer_vals arith_q (prev + 1) d th (h ++ [(1, 1)]) in
      match rest' with
      | [] => (pre, [])
      | _ :: _ =>
          let '(out, ps) := relu_forward d rest' (drop_n (d * (prev + 1)) th) (relu_vec_q pre) in
          (out, pre :: ps)
      end
  end.

(** [(F_theta(x), hidden pre-activations)] exactly over Q. *)
Definition relu_eval (widths : list nat) (th x : list (Z * Z))
  : list (Z * Z) * list (list (Z * Z)) :=
  match widths with
  | [] => ([], [])
  | d0 :: rest => relu_forward d0 rest th x
  end.

(** No entry is zero. *)
Definition all_nonzero_q (xs : list (Z * Z)) : bool :=
  forallb (fun x => negb (Z.eqb (fst x) 0)) xs.

(** No hidden pre-activation is zero. *)
Definition pres_nonzero (pres : list (list (Z * Z))) : bool := forallb all_nonzero_q pres.

(** The activation pattern: which hidden neurons are active. *)
Definition pattern_of (pres : list (list (Z * Z))) : list (list bool) :=
  map (map (fun a => 0 <? fst a)) pres.

(** No batch point lies on a bent hyperplane. *)
Definition batch_nonzero (widths : list nat) (th : list (Z * Z)) (batch : list (list (Z * Z)))
  : bool :=
  forallb (fun x => pres_nonzero (snd (relu_eval widths th x))) batch.

(** Well-formed instance and batch. *)
Definition relu_shape_ok (widths : list nat) (th : list (Z * Z)) (batch : list (list (Z * Z)))
  : bool :=
  Nat.leb 2 (length widths) && all_pos widths &&
  Nat.eqb (length th) (n_params widths true) && rats_pos th &&
  rows_len (first_width widths) batch && acts_pos batch.

(** * Rank *)

(** The pattern of every batch point. *)
Definition batch_patterns (widths : list nat) (th : list (Z * Z)) (batch : list (list (Z * Z)))
  : list (list (list bool)) :=
  map (fun x => pattern_of (snd (relu_eval widths th x))) batch.

Section Back.
Context {A : Type} (ar : arith A).

(** ReLU with a fixed pattern on plain values. *)
Fixpoint mask_vals (pat : list bool) (xs : list A) : list A :=
  match pat, xs with
  | b :: pat', x :: xs' => (if b then x else zero ar) :: mask_vals pat' xs'
  | _, _ => []
  end.

(** (gradient of a layer's parameters, gradient of its input) from that of its
    pre-activations. *)
Definition back_layer (prev : nat) (hb g th : list A) : list A * list A :=
  (scale_each ar g hb, take_n prev (back_rows ar (prev + 1) g th (zeros ar (prev + 1)))).

(** [(dF_k/dtheta, dF_k/dh)] by reverse mode with the pattern [pats] fixed. *)
Fixpoint relu_back (prev : nat) (rest : list nat) (pats : list (list bool)) (th h : list A)
    (k : nat) : list A * list A :=
  match rest with
  | [] => ([], [])
  | d :: rest' =>
      let hb := h ++ [one ar] in
      match rest' with
      | [] => back_layer prev hb (unit_vec ar d k) th
      | _ :: _ =>
          let pat := hd [] pats in
          let '(grest, gh) := relu_back d rest' (tl pats) (drop_n (d * (prev + 1)) th)
                                (mask_vals pat (layer_vals ar (prev + 1) d th hb)) k in
          let '(gthis, gin) := back_layer prev hb (mask_vals pat gh) th in
          (gthis ++ grest, gin)
      end
  end.

End Back.

(** The rows of the batch Jacobian mod p for the labels [(s, k)]: the gradient of [F_k] at
    [z_s] by one reverse-mode pass mod p with the pattern of [z_s] fixed. *)
Definition relu_rows_mod (p : Z) (widths : list nat) (pats_all : list (list (list bool)))
    (th_m : list int) (batch_m : list (list int)) (rows : list (nat * nat)) : list (list int) :=
  let ar := arith_mod (Uint63.of_Z p) in
  map (fun r => fst (relu_back ar (first_width widths) (tl widths) (nth (fst r) pats_all [])
                       th_m (nth_row batch_m (fst r)) (snd r))) rows.

(** rank over Q of the Jacobian of [theta -> (F_theta(z))_(z in batch)] at theta is [>= r]. *)
Definition check_relu_rank_lower (inst : relu_instance) (w : relu_lower_witness) (r : nat)
  : bool :=
  let p := rl_p w in
  relu_shape_ok (ri_widths inst) (ri_theta inst) (rl_batch w) &&
  p_ok p &&
  rats_inv_ok p (ri_theta inst) (rl_theta_inv w) &&
  acts_inv_ok p (rl_batch w) (rl_batch_inv w) &&
  batch_nonzero (ri_widths inst) (ri_theta inst) (rl_batch w) &&
  check_rank_core p (length (ri_theta inst)) (length (rl_batch w)) (last_width (ri_widths inst))
    (rl_rows w)
    (relu_rows_mod p (ri_widths inst)
       (batch_patterns (ri_widths inst) (ri_theta inst) (rl_batch w))
       (rats_mod p (ri_theta inst) (rl_theta_inv w)) (acts_mod p (rl_batch w) (rl_batch_inv w))
       (rl_rows w))
    (rl_cols w) r.

(** [g . t] over the pairs, the entries where [t] is [0] skipped: the same rational as
    [dot arith_q g (ints_q t)] (UpperSoundReLU.v [dot_nz_rel]). An unnormalised sum
    multiplies the denominators of every term it adds, and a scaling tangent is nonzero on
    one neuron's weights only (about 31 of 850 entries for widths 10-20-20-10), so the pairs
    stay small. *)
Fixpoint dot_nz (g : list (Z * Z)) (t : list Z) : Z * Z :=
  match g, t with
  | x :: g', y :: t' => if Z.eqb y 0 then dot_nz g' t' else qadd (qmul x (y, 1)) (dot_nz g' t')
  | _, _ => (0, 1)
  end.

(** Every tangent is orthogonal to the exact gradient [g] over Q. *)
Fixpoint grad_kills (g : list (Z * Z)) (ts : list (list Z)) : bool :=
  match ts with
  | [] => true
  | t :: ts' => Z.eqb (fst (dot_nz g t)) 0 && grad_kills g ts'
  end.

(** [grad_kills] for the exact gradients (reverse mode over Q, pattern fixed) of the outputs
    [k, ..., k + count - 1] at [x]. *)
Fixpoint outputs_kill (inst : relu_instance) (pats : list (list bool)) (x : list (Z * Z))
    (ts : list (list Z)) (k count : nat) : bool :=
  match count with
  | O => true
  | S c =>
      grad_kills (fst (relu_back arith_q (first_width (ri_widths inst)) (tl (ri_widths inst))
                         pats (ri_theta inst) x k)) ts &&
      outputs_kill inst pats x ts (S k) c
  end.

(** Every tangent lies in the kernel of the batch Jacobian (exactly, pattern fixed). *)
Fixpoint tangents_vanish_relu (inst : relu_instance) (batch : list (list (Z * Z)))
    (ts : list (list Z)) : bool :=
  match batch with
  | [] => true
  | x :: batch' =>
      outputs_kill inst (pattern_of (snd (relu_eval (ri_widths inst) (ri_theta inst) x))) x ts
        0 (last_width (ri_widths inst)) &&
      tangents_vanish_relu inst batch' ts
  end.

(** The tangents are independent vectors in the kernel of the batch Jacobian at theta, so
    its rank is [<= u = D - s]. The rows are exact rational gradients: no moduli. *)
Definition check_relu_rank_upper (inst : relu_instance) (batch : list (list (Z * Z)))
    (w : upper_witness) (u : nat) : bool :=
  let n := length (ri_theta inst) in
  let s := length (uw_tangents w) in
  relu_shape_ok (ri_widths inst) (ri_theta inst) batch &&
  batch_nonzero (ri_widths inst) (ri_theta inst) batch &&
  Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) &&
  match uw_moduli w with [] => true | _ :: _ => false end &&
  tangents_vanish_relu inst batch (uw_tangents w) &&
  independent_mod (uw_p w) n (uw_tangents w) (uw_cols w).

(** * Equivalence on the line (input width 1) *)

(** [a <= b] for rationals with positive denominators. *)
Definition qle (a b : Z * Z) : bool := fst a * snd b <=? fst b * snd a.

(** An affine function with values [u] at [a] and [v] at [b > a] keeps its sign on [[a, b]]
    (mode 0), on [(-inf, b]] (mode 1), or on [[a, +inf)] (mode 2). *)
Definition side_ok (mode : nat) (u v : Z * Z) : bool :=
  let z := (0, 1) in
  match mode with
  | O => (qle z u && qle z v) || (qle u z && qle v z)
  | S O => (qle z v && qle v u) || (qle u v && qle v z)
  | _ => (qle z u && qle u v) || (qle v u && qle u z)
  end.

(** [side_ok] for every neuron of a layer (false on a length mismatch). *)
Fixpoint layer_side_ok (mode : nat) (us vs : list (Z * Z)) : bool :=
  match us, vs with
  | [], [] => true
  | u :: us', v :: vs' => side_ok mode u v && layer_side_ok mode us' vs'
  | _, _ => false
  end.

(** [layer_side_ok] for every hidden layer (false on a length mismatch). *)
Fixpoint pres_side_ok (mode : nat) (pus pvs : list (list (Z * Z))) : bool :=
  match pus, pvs with
  | [], [] => true
  | us :: pus', vs :: pvs' => layer_side_ok mode us vs && pres_side_ok mode pus' pvs'
  | _, _ => false
  end.

(** [relu_eval] at every point (one-dimensional input). *)
Definition eval_points (widths : list nat) (th pts : list (Z * Z))
  : list (list (Z * Z) * list (list (Z * Z))) :=
  map (fun t => relu_eval widths th [t]) pts.

(** Between consecutive points every hidden pre-activation keeps its sign. *)
Fixpoint pairs_ok (evs : list (list (Z * Z) * list (list (Z * Z)))) : bool :=
  match evs with
  | [] => true
  | a :: evs' =>
      match evs' with
      | [] => true
      | b :: _ => pres_side_ok 0 (snd a) (snd b) && pairs_ok evs'
      end
  end.

(** The signs are constant on the ray left of the second point. *)
Definition first_pair_ok (evs : list (list (Z * Z) * list (list (Z * Z)))) : bool :=
  match evs with
  | a :: b :: _ => pres_side_ok 1 (snd a) (snd b)
  | _ => false
  end.

(** The signs are constant on the ray right of the second-to-last point. *)
Fixpoint last_pair_ok (evs : list (list (Z * Z) * list (list (Z * Z)))) : bool :=
  match evs with
  | [] => false
  | a :: evs' =>
      match evs' with
      | [] => false
      | [b] => pres_side_ok 2 (snd a) (snd b)
      | _ :: _ :: _ => last_pair_ok evs'
      end
  end.

(** Every pre-activation, hence F, is affine on each piece and on the two outer rays. *)
Definition pieces_ok (evs : list (list (Z * Z) * list (list (Z * Z)))) : bool :=
  first_pair_ok evs && pairs_ok evs && last_pair_ok evs.

(** Equal outputs at every point (false on a length mismatch). *)
Fixpoint same_outputs (a b : list (list (Z * Z) * list (list (Z * Z)))) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeq_all (fst x) (fst y) && same_outputs a' b'
  | _, _ => false
  end.

(** Strictly increasing. *)
Fixpoint strictly_increasing (pts : list (Z * Z)) : bool :=
  match pts with
  | [] => true
  | a :: pts' =>
      match pts' with
      | [] => true
      | b :: _ => qle a b && negb (qle b a) && strictly_increasing pts'
      end
  end.

(** [F_theta = F_theta2] on all of R: both affine on every piece cut by the sorted points and
    on the rays, and equal at every point. *)
Definition check_relu_equiv (inst : relu_instance) (th2 pts : list (Z * Z)) : bool :=
  let ev1 := eval_points (ri_widths inst) (ri_theta inst) pts in
  let ev2 := eval_points (ri_widths inst) th2 pts in
  relu_shape_ok (ri_widths inst) (ri_theta inst) [] &&
  relu_shape_ok (ri_widths inst) th2 [] &&
  Nat.eqb (first_width (ri_widths inst)) 1 &&
  rats_pos pts &&
  strictly_increasing pts &&
  pieces_ok ev1 &&
  pieces_ok ev2 &&
  same_outputs ev1 ev2.

(** The line [a_1, b_1, c_1, a_2, b_2, c_2, ..., a_k, b_k] from a batch of one-dimensional
    points (their first coordinates) and the cuts [c_j] placed after every second batch point
    while cuts remain. *)
Fixpoint cover_points (batch : list (list (Z * Z))) (cuts : list (Z * Z)) (second : bool)
  : list (Z * Z) :=
  match batch with
  | [] => []
  | x :: batch' =>
      nth_q x 0 ::
        (if second then
           match cuts with
           | c :: cuts' => c :: cover_points batch' cuts' false
           | [] => cover_points batch' [] false
           end
         else cover_points batch' cuts true)
  end.

(** Input width 1: the batch holds two points of every linear piece. On the sorted line
    [a_1 < b_1 < c_1 < ... < a_k < b_k] every hidden pre-activation keeps its sign between
    consecutive points and on the outer rays, and none vanishes at a batch point, so every
    input off the breakpoints has the activation pattern of some pair [a_j <> b_j]. *)
Definition check_relu_cover (inst : relu_instance) (batch : list (list (Z * Z)))
    (cuts : list (Z * Z)) : bool :=
  relu_shape_ok (ri_widths inst) (ri_theta inst) batch &&
  Nat.eqb (first_width (ri_widths inst)) 1 &&
  rats_pos cuts &&
  Nat.eqb (length batch) (2 * length cuts + 2) &&
  batch_nonzero (ri_widths inst) (ri_theta inst) batch &&
  let pts := cover_points batch cuts false in
  strictly_increasing pts &&
  pieces_ok (eval_points (ri_widths inst) (ri_theta inst) pts).

(** [F_theta(x) <> F_theta2(x)], exactly. *)
Definition check_relu_differ (inst : relu_instance) (th2 : list (Z * Z)) (x : Z * Z) : bool :=
  relu_shape_ok (ri_widths inst) (ri_theta inst) [] &&
  relu_shape_ok (ri_widths inst) th2 [] &&
  Nat.eqb (first_width (ri_widths inst)) 1 &&
  (0 <? snd x) &&
  negb (qeq_all (fst (relu_eval (ri_widths inst) (ri_theta inst) [x]))
                (fst (relu_eval (ri_widths inst) th2 [x]))).

(** * Permutations and positive scalings of the hidden neurons *)

(** [count] copies of [1]. *)
Fixpoint ones_q (n : nat) : list (Z * Z) :=
  match n with
  | O => []
  | S n' => (1, 1) :: ones_q n'
  end.

(** [xs] is a permutation of [0 .. n-1]. *)
Definition is_perm (n : nat) (xs : list nat) : bool :=
  Nat.eqb (length xs) n && all_lt n xs && nodup_nat xs.

(** Every rational is positive. *)
Definition all_pos_q (xs : list (Z * Z)) : bool :=
  forallb (fun x => (0 <? fst x) && (0 <? snd x)) xs.

(** [perms[l]] permutes the [ws[l]] neurons, [scales[l]] are [ws[l]] positive rationals. *)
Fixpoint perms_ok (ws : list nat) (perms : list (list nat)) (scales : list (list (Z * Z)))
  : bool :=
  match ws, perms, scales with
  | w :: ws', pm :: perms', sc :: scales' =>
      is_perm w pm && Nat.eqb (length sc) w && all_pos_q sc && perms_ok ws' perms' scales'
  | _, _, _ => true
  end.

(** [1/a] for a positive rational. *)
Definition qinv_pos (a : Z * Z) : Z * Z := (snd a, fst a).

(** New incoming weights of a neuron: [lam * row[perm_prev[j]] / scale_prev[j]]. *)
Fixpoint gather_row (row : list (Z * Z)) (perm_prev : list nat) (scale_prev : list (Z * Z))
    (lam : Z * Z) : list (Z * Z) :=
  match perm_prev, scale_prev with
  | j :: pp', s :: sp' => qmul lam (qmul (nth_q row j) (qinv_pos s)) :: gather_row row pp' sp' lam
  | _, _ => []
  end.

(** One layer of [g.theta]: new neuron [k] is old neuron [perm[k]] scaled by [scale[k]]. *)
Fixpoint sym_layer (rowlen : nat) (th : list (Z * Z)) (perm_prev : list nat)
    (scale_prev : list (Z * Z)) (perm : list nat) (scale : list (Z * Z)) : list (Z * Z) :=
  match perm, scale with
  | k :: perm', lam :: scale' =>
      let row := take_n rowlen (drop_n (k * rowlen) th) in
      gather_row row perm_prev scale_prev lam ++ [qmul lam (nth_q row (rowlen - 1))] ++
      sym_layer rowlen th perm_prev scale_prev perm' scale'
  | _, _ => []
  end.

(** [g.theta] through the layers [rest]; the output layer keeps its neurons. *)
Fixpoint apply_sym (prev : nat) (rest : list nat) (perms : list (list nat))
    (scales : list (list (Z * Z))) (perm_prev : list nat) (scale_prev : list (Z * Z))
    (th : list (Z * Z)) : list (Z * Z) :=
  match rest with
  | [] => []
  | d :: rest' =>
      let perm := match rest' with [] => range_nat 0 d | _ :: _ => hd [] perms end in
      let scale := match rest' with [] => ones_q d | _ :: _ => hd [] scales end in
      sym_layer (prev + 1) (take_n (d * (prev + 1)) th) perm_prev scale_prev perm scale ++
      apply_sym d rest' (tl perms) (tl scales) perm scale (drop_n (d * (prev + 1)) th)
  end.

(** [theta2 = g.theta] for the given permutations and positive scalings. *)
Definition check_relu_symmetry (inst : relu_instance) (th2 : list (Z * Z))
    (perms : list (list nat)) (scales : list (list (Z * Z))) : bool :=
  let w := ri_widths inst in
  relu_shape_ok w (ri_theta inst) [] &&
  relu_shape_ok w th2 [] &&
  Nat.eqb (length perms + 2) (length w) &&
  Nat.eqb (length scales + 2) (length w) &&
  perms_ok (tl w) perms scales &&
  qeq_all (apply_sym (first_width w) (tl w) perms scales (range_nat 0 (first_width w))
             (ones_q (first_width w)) (ri_theta inst)) th2.
