/-
NNCert.Net: polynomial MLPs evaluated in forward mode (dual numbers `a + b ε`) and in reverse
mode (one backward pass per Jacobian row), generic in the arithmetic, and the shape checks of an
instance.
Python twin: certify/checker/kernel/net.py (NNCert/Net); Coq twin: coq/NNCert/kernel/Net.v. Same
names (camelCase here), same order. `layerVals`, `addScaledRow`, `backRows` and `scaleEach` live here (not in
NNCert.ReLU) because the MLP, ResNet and ReLU rows all use them.
A network is `(widths, acts, bias, theta)`: `theta` is flat, layer by layer, neuron by neuron,
the incoming weights then the bias; `acts` has one coefficient list (constant term first) per
hidden layer; the last layer is linear.
-/
import NNCert.Lists
import NNCert.Arith

namespace NNCert

/-- `dot ar ws xs` is `Σ_i ws[i] * xs[i]` over the shorter length, summed from the last term
(`ws[0] * xs[0] + (ws[1] * xs[1] + (... + 0))`). -/
def dot {α : Type} (ar : Arith α) (ws xs : List α) : α :=
  match ws, xs with
  | w :: ws', x :: xs' => ar.add (ar.mul w x) (dot ar ws' xs')
  | _, _ => ar.zero
termination_by structural ws

/-- `hornerDual ar cs a da` is `(σ(a), σ'(a) * da)` for the polynomial `σ(t) = Σ_k cs[k] t^k`:
Horner's scheme on the dual number `a + da ε`. -/
def hornerDual {α : Type} (ar : Arith α) (cs : List α) (a da : α) : α × α :=
  match cs with
  | [] => (ar.zero, ar.zero)
  | c :: cs' =>
    match hornerDual ar cs' a da with
    | (s, ds) => (ar.add c (ar.mul a s), ar.add (ar.mul a ds) (ar.mul da s))
termination_by structural cs

/-- `actDual ar cs hs dhs` applies the activation `σ` (coefficients `cs`) to every dual number
`hs[i] + dhs[i] ε` (over the shorter length): the values `σ(hs[i])` and the tangents
`σ'(hs[i]) * dhs[i]`. -/
def actDual {α : Type} (ar : Arith α) (cs hs dhs : List α) : List α × List α :=
  match hs, dhs with
  | [], _ => ([], [])
  | _, [] => ([], [])
  | h :: hs', dh :: dhs' =>
    match hornerDual ar cs h dh, actDual ar cs hs' dhs' with
    | (v, dv), (vs, dvs) => (v :: vs, dv :: dvs)
termination_by structural hs

/-- `layerDual ar rowlen nrows th dth hb dhb` is the pre-activations of `nrows` neurons and their
tangents: neuron `j` has the weights `w = th[j*rowlen : (j+1)*rowlen]` (tangent `dw` from `dth`),
pre-activation `w · hb` and tangent `dw · hb + w · dhb`. -/
def layerDual {α : Type} (ar : Arith α) (rowlen nrows : Nat) (th dth hb dhb : List α) :
    List α × List α :=
  match nrows with
  | 0 => ([], [])
  | nrows' + 1 =>
    let w := takeN rowlen th
    let dw := takeN rowlen dth
    match layerDual ar rowlen nrows' (dropN rowlen th) (dropN rowlen dth) hb dhb with
    | (pre, dpre) => ((dot ar w hb) :: pre, (ar.add (dot ar dw hb) (dot ar w dhb)) :: dpre)
termination_by structural nrows

/-- `withBias ar bias h v` is `h` followed by the constant `v` when the network has biases, and
`h` otherwise. (The arithmetic argument is unused, as in the Python twin.) -/
def withBias {α : Type} (_ar : Arith α) (bias : Bool) (h : List α) (v : α) : List α :=
  cond bias (h ++ [v]) h

/-- `netDual ar bias prev rest acts th dth h dh` runs forward mode through the layers of widths
`rest` (the previous width is `prev`) from the input `h + dh ε`: each layer's pre-activations,
then the next activation (`acts[0]`, or `[]` when `acts` is empty) on all layers but the last.
The result is the output and its tangent. -/
def netDual {α : Type} (ar : Arith α) (bias : Bool) (prev : Nat) (rest : List Nat)
    (acts : List (List α)) (th dth h dh : List α) : List α × List α :=
  match rest with
  | [] => (h, dh)
  | d :: rest' =>
    let rowlen := prev + cond bias 1 0
    match layerDual ar rowlen d th dth (withBias ar bias h ar.one) (withBias ar bias dh ar.zero) with
    | (pre, dpre) =>
      cond rest'.isEmpty (pre, dpre)
        (match actDual ar (nthRow acts 0) pre dpre with
          | (h', dh') =>
            netDual ar bias d rest' (dropN 1 acts) (dropN (d * rowlen) th)
              (dropN (d * rowlen) dth) h' dh')
termination_by structural rest

/-- `netEval ar widths acts bias th dth x dx` is `(f_θ(x), d/dt f_{θ + t dθ}(x + t dx) at t = 0)`
for the network `(widths, acts, bias)` at the parameters `θ = th`, with tangents `dθ = dth`. -/
def netEval {α : Type} (ar : Arith α) (widths : List Nat) (acts : List (List α)) (bias : Bool)
    (th dth x dx : List α) : List α × List α :=
  match widths with
  | [] => ([], [])
  | w0 :: rest => netDual ar bias w0 rest acts th dth x dx

/-! Reverse mode: a whole Jacobian row `∂ f_k / ∂ θ` in one backward pass, `O(#params)`. -/

/-- `layerVals ar rowlen nrows th hb` is the list of the values `w_i · hb` of `nrows` neurons,
neuron `i` with the weights `th[i*rowlen : (i+1)*rowlen]` (`hb = h ++ [1]` when the layer has
biases). -/
def layerVals {α : Type} (ar : Arith α) (rowlen nrows : Nat) (th hb : List α) : List α :=
  match nrows with
  | 0 => []
  | k + 1 => (dot ar (takeN rowlen th) hb) :: layerVals ar rowlen k (dropN rowlen th) hb
termination_by structural nrows

/-- `addScaledRow ar z r acc` is `z * r + acc` entrywise, over the shorter of `r` and `acc`. -/
def addScaledRow {α : Type} (ar : Arith α) (z : α) (r acc : List α) : List α :=
  match r, acc with
  | x :: r', y :: acc' => (ar.add (ar.mul z x) y) :: addScaledRow ar z r' acc'
  | _, _ => []
termination_by structural r

/-- `backRows ar rowlen g th acc` is `acc + Σ_i g[i] * (row i of th)` for rows of `rowlen`
parameters: `Wᵀ g` (with the bias column last when the layer has biases). -/
def backRows {α : Type} (ar : Arith α) (rowlen : Nat) (g th acc : List α) : List α :=
  match g with
  | [] => acc
  | gi :: g' => backRows ar rowlen g' (dropN rowlen th) (addScaledRow ar gi (takeN rowlen th) acc)
termination_by structural g

/-- `scaleEach ar g hb` is `g[i] * hb` for every neuron `i`, flat: the gradient of one layer's
weights (and biases) when `g` is the gradient of its pre-activations and `hb` its input
(`h ++ [1]` with biases). -/
def scaleEach {α : Type} (ar : Arith α) (g hb : List α) : List α :=
  match g with
  | [] => []
  | gi :: g' => hb.map (fun v => ar.mul gi v) ++ scaleEach ar g' hb
termination_by structural g

/-- `hadamard ar xs ys` is the entrywise product `[xs[i] * ys[i]]`, over the shorter length. -/
def hadamard {α : Type} (ar : Arith α) (xs ys : List α) : List α :=
  match xs, ys with
  | x :: xs', y :: ys' => (ar.mul x y) :: hadamard ar xs' ys'
  | _, _ => []
termination_by structural xs

/-- `actVd ar cs hs` is `(σ(h), σ'(h))` for every `h` of `hs` (`σ` with coefficients `cs`):
Horner's scheme on the dual number `h + 1 ε`. -/
def actVd {α : Type} (ar : Arith α) (cs hs : List α) : List α × List α :=
  actDual ar cs hs (hs.map (fun _ => ar.one))

/-- `netBack ar bias prev rest acts th h k` is `(∂ f_k / ∂ θ for the layers of widths rest,
∂ f_k / ∂ h)` by reverse mode from the input `h` of width `prev`: one forward value per layer
(`layerVals`, then `σ` and `σ'` by `actVd`), the gradient of the output `k` pulled back through
`σ'` (`hadamard`) and `Wᵀ` (`backRows`); the gradient of a layer's weights is `g ⊗ hb`
(`scaleEach`). A whole Jacobian row costs one pass, `O(#params)`. -/
def netBack {α : Type} (ar : Arith α) (bias : Bool) (prev : Nat) (rest : List Nat)
    (acts : List (List α)) (th h : List α) (k : Nat) : List α × List α :=
  match rest with
  | [] => ([], [])
  | d :: rest' =>
    let rowlen := prev + cond bias 1 0
    let hb := withBias ar bias h ar.one
    match rest' with
    | [] =>
      let g := unitVec ar d k
      (scaleEach ar g hb, takeN prev (backRows ar rowlen g th (zeros ar rowlen)))
    | _ :: _ =>
      match actVd ar (nthRow acts 0) (layerVals ar rowlen d th hb) with
      | (v, dv) =>
        match netBack ar bias d rest' (dropN 1 acts) (dropN (d * rowlen) th) v k with
        | (grest, gh) =>
          let g := hadamard ar dv gh
          (scaleEach ar g hb ++ grest, takeN prev (backRows ar rowlen g th (zeros ar rowlen)))
termination_by structural rest

/-- `netRow ar widths acts bias th x k` is the Jacobian row `∂ f_θ(x)[k] / ∂ θ` (one entry per
parameter) of the network `(widths, acts, bias)` at `θ = th`, by one reverse pass. -/
def netRow {α : Type} (ar : Arith α) (widths : List Nat) (acts : List (List α)) (bias : Bool)
    (th x : List α) (k : Nat) : List α :=
  match widths with
  | [] => []
  | w0 :: rest => (netBack ar bias w0 rest acts th x k).1

/-! Shapes. -/

/-- `nParamsFrom prev rest b` is `Σ_l rest[l] * (rest[l-1] + b)` with `rest[-1] = prev`: the
parameter count of the layers of widths `rest` after a layer of width `prev` (`b = 1` with
biases, `0` without). -/
def nParamsFrom (prev : Nat) (rest : List Nat) (b : Nat) : Nat :=
  match rest with
  | [] => 0
  | d :: rest' => d * (prev + b) + nParamsFrom d rest' b
termination_by structural rest

/-- `nParams widths bias` is the number of parameters of the network with layer widths
`widths`: `Σ_l d_l * (d_{l-1} + b)`, `b = 1` with biases. -/
def nParams (widths : List Nat) (bias : Bool) : Nat :=
  match widths with
  | [] => 0
  | w0 :: rest => nParamsFrom w0 rest (cond bias 1 0)

/-- `lastWidth widths` is the output width (the last entry), `0` for no widths. -/
def lastWidth (widths : List Nat) : Nat :=
  match widths with
  | [] => 0
  | w :: ws => cond ws.isEmpty w (lastWidth ws)
termination_by structural widths

/-- `firstWidth widths` is the input width (the first entry), `0` for no widths. -/
def firstWidth (widths : List Nat) : Nat :=
  match widths with
  | [] => 0
  | w :: _ => w

/-- `degreeBound acts` is `Π_l (acts[l].length - 1)`: the product of the activations' degrees,
an upper bound on the degree of the network's output in `x`. The subtraction is on `Nat` (an
empty coefficient list gives the factor `0`, as `max(len - 1, 0)` in the Python twin). -/
def degreeBound (acts : List (List (Int × Int))) : Nat :=
  match acts with
  | [] => 1
  | cs :: acts' => (cs.length - 1) * degreeBound acts'
termination_by structural acts

/-- `actsNonconst acts` holds when every activation has at least two coefficients. -/
def actsNonconst (acts : List (List (Int × Int))) : Bool :=
  match acts with
  | [] => true
  | cs :: acts' => Nat.ble 2 cs.length && actsNonconst acts'
termination_by structural acts

/-- `shapeOk widths acts bias th samples` holds when the instance is well formed: at least two
widths, all positive, one activation per hidden layer, every activation nonconstant, as many
parameters as the architecture has, and every sample of the input width. -/
def shapeOk (widths : List Nat) (acts : List (List (Int × Int))) (bias : Bool)
    (th : List (Int × Int)) (samples : List (List Int)) : Bool :=
  Nat.ble 2 widths.length &&
  allPos widths &&
  Nat.beq (acts.length + 2) widths.length &&
  actsNonconst acts &&
  Nat.beq th.length (nParams widths bias) &&
  rowsLen (firstWidth widths) samples

end NNCert
