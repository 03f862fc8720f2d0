<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>Lessons</name>
    <message>
        <source>1. The forward process and π</source>
        <translation>1. 順過程と π</translation>
    </message>
    <message>
        <source>Chains forget their class</source>
        <translation>連鎖はクラスを忘れる</translation>
    </message>
    <message>
        <source>&lt;p&gt;Each lane is one of K = 4 classes. The dots are chains started from the data; at every step a chain keeps its class or, with a probability given by the schedule β, redraws it from the prior π. The red outlines are the exact marginal q(xₜ), the blue bars the chains' share, so each bar should fill its outline.&lt;/p&gt;&lt;p&gt;Here π is uniform: at t = 1 every class holds a quarter of the chains, whatever the data were.&lt;/p&gt;</source>
        <translation>&lt;p&gt;各レーンは K = 4 個のクラスの 1 つです。点はデータから出発した連鎖で、各ステップで連鎖はクラスを保つか、スケジュール β で決まる確率で事前分布 π から引き直します。赤い枠は厳密な周辺分布 q(xₜ)、青い棒は連鎖の割合なので、各棒はその枠を満たすはずです。&lt;/p&gt;&lt;p&gt;ここでは π は一様です。t = 1 では、データが何であっても各クラスに連鎖の 4 分の 1 が入ります。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Press Play (Space) and watch the outlines flatten to ¼ each. Drag the time slider back and forth: the outlines are exact at every t.</source>
        <translation>再生 (Space) を押して、枠がそれぞれ ¼ にならされる様子を見てください。時刻スライダーを前後に動かしてください。枠はどの t でも厳密です。</translation>
    </message>
    <message>
        <source>A prior that is not uniform</source>
        <translation>一様でない事前分布</translation>
    </message>
    <message>
        <source>&lt;p&gt;The same data with π = (0.7, 0.1, 0.1, 0.1): redrawn chains land mostly in class 0, so the forward process ends at π, not at the uniform distribution. The reverse process must start from π too.&lt;/p&gt;</source>
        <translation>&lt;p&gt;同じデータで π = (0.7, 0.1, 0.1, 0.1) とします。引き直された連鎖はほとんどクラス 0 に入るので、順過程は一様分布ではなく π に行き着きます。逆過程も π から始めなければなりません。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Type π = 0.1, 0.1, 0.1, 0.7 in the panel and play again: the mass now flows to class 3. A π that does not sum to 1 is offered a one-click normalisation.</source>
        <translation>パネルで π = 0.1, 0.1, 0.1, 0.7 と入力して、もう一度再生してください。今度は質量がクラス 3 へ流れます。和が 1 にならない π を入力すると、ワンクリックの正規化が提案されます。</translation>
    </message>
    <message>
        <source>The matrix P₀,ₜ</source>
        <translation>行列 P₀,ₜ</translation>
    </message>
    <message>
        <source>&lt;p&gt;P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ carries x₀ to xₜ in one step. At t = 0 it is the identity; at t = 1 every row equals π. Pₛ,ₜ, from an earlier time s, has the same form with (1 − βₜ)/(1 − βₛ) in place of 1 − βₜ.&lt;/p&gt;</source>
        <translation>&lt;p&gt;P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ は x₀ を 1 ステップで xₜ へ運びます。t = 0 では単位行列、t = 1 ではすべての行が π に等しくなります。より前の時刻 s からの Pₛ,ₜ は、1 − βₜ の代わりに (1 − βₜ)/(1 − βₛ) を使った同じ形です。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Move the time slider from the start to the end and watch the diagonal fade into rows equal to π. Hover a cell to read its value.</source>
        <translation>時刻スライダーを最初から最後まで動かし、対角成分が薄れて各行が π になる様子を見てください。セルにポインタを重ねると値が読めます。</translation>
    </message>
    <message>
        <source>2. The closed-form and the D3PM-style kernel</source>
        <translation>2. 閉形式のカーネルと D3PM 型のカーネル</translation>
    </message>
    <message>
        <source>A uniform prior</source>
        <translation>一様な事前分布</translation>
    </message>
    <message>
        <source>&lt;p&gt;The reverse kernel q(xₛ | xₜ) turns the denoiser F(x₀ | xₜ) into a step back in time. This view runs reverse sampling from π with two kernels and the exact denoiser, and shows where each ends next to the data. The closed form is the exact posterior averaged over F; the D3PM-style kernel drops a division inside that average.&lt;/p&gt;&lt;p&gt;With a uniform π the closed form lands on the data exactly; the D3PM-style kernel misses by up to about 0.1 per class, and more steps do not fix it. The status line gives KL(data ‖ each) in nats.&lt;/p&gt;</source>
        <translation>&lt;p&gt;逆過程のカーネル q(xₛ | xₜ) は、デノイザ F(x₀ | xₜ) を時間を 1 ステップ戻る遷移に変えます。このビューは、厳密なデノイザと 2 つのカーネルで π から逆過程のサンプリングを行い、それぞれがどこに行き着くかをデータと並べて示します。閉形式は厳密な事後分布を F で平均したもので、D3PM 型のカーネルはその平均の中の割り算を省いています。&lt;/p&gt;&lt;p&gt;π が一様なとき、閉形式はデータにちょうど行き着きますが、D3PM 型のカーネルはクラスごとに最大 0.1 程度ずれ、ステップを増やしても直りません。ステータス行に KL(データ ‖ 各カーネル) が nat で示されます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Raise the path steps in the panel from 10 to 50: the D3PM-style kernel&apos;s miss stays.</source>
        <translation>パネルで経路のステップ数を 10 から 50 に増やしてください。D3PM 型のカーネルのずれは残ります。</translation>
    </message>
    <message>
        <source>An absorbing prior</source>
        <translation>吸収的な事前分布</translation>
    </message>
    <message>
        <source>&lt;p&gt;With a mask state that takes all of π (masked diffusion) both kernels bring the chains back to the data: the D3PM-style kernel is exact only in this absorbing case, which is why it serves masked models well.&lt;/p&gt;</source>
        <translation>&lt;p&gt;π のすべてを持つマスク状態があるとき (マスク拡散)、どちらのカーネルも連鎖をデータへ戻します。D3PM 型のカーネルが厳密なのはこの吸収的な場合だけで、そのためマスク付きのモデルにはよく合います。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare the two KL values in the status line with those of the previous step.</source>
        <translation>ステータス行の 2 つの KL の値を、前のステップの値と比べてください。</translation>
    </message>
    <message>
        <source>3. Information and the schedule</source>
        <translation>3. 情報量とスケジュール</translation>
    </message>
    <message>
        <source>A linear schedule</source>
        <translation>線形スケジュール</translation>
    </message>
    <message>
        <source>&lt;p&gt;The mutual information I(X₀;Xₜ) between the data and its noisy version starts at the data&apos;s entropy and falls to 0. With a linear β(t) most of it is gone early: the late steps see almost pure noise.&lt;/p&gt;</source>
        <translation>&lt;p&gt;データとそのノイズ入りの版の間の相互情報量 I(X₀;Xₜ) は、データのエントロピーから始まって 0 まで下がります。線形の β(t) では大部分が早い時刻に失われ、後半のステップはほぼ純粋なノイズを見ることになります。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Read I at t = 0.5 with the time slider. Where is half of the information lost?</source>
        <translation>時刻スライダーで t = 0.5 での I を読んでください。情報量の半分はどこで失われますか。</translation>
    </message>
    <message>
        <source>The cosine schedule</source>
        <translation>コサインスケジュール</translation>
    </message>
    <message>
        <source>&lt;p&gt;The cosine schedule keeps β small for longer, so the information falls later and more evenly: steps are spent where the data still carry signal.&lt;/p&gt;</source>
        <translation>&lt;p&gt;コサインスケジュールは β を長く小さく保つので、情報量はより遅く、より均等に下がります。データにまだ信号が残っているところでステップが使われます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare the step costs below the schedule with those of the linear schedule (the previous step).</source>
        <translation>スケジュールの下のステップコストを、線形スケジュール (前のステップ) のものと比べてください。</translation>
    </message>
    <message>
        <source>Information-linear</source>
        <translation>情報量線形</translation>
    </message>
    <message>
        <source>&lt;p&gt;The information-linear schedule is solved from the data so that I(X₀;Xₜ) falls on a straight line: every step of the even trajectory then removes the same amount of information.&lt;/p&gt;</source>
        <translation>&lt;p&gt;情報量線形スケジュールは、I(X₀;Xₜ) が直線に沿って下がるようにデータから解かれます。このとき等間隔の軌跡の各ステップは、同じ量の情報を取り除きます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Change the data table (or π): the schedule is solved again and the information stays a straight line.</source>
        <translation>データの表 (または π) を変えてください。スケジュールが解き直され、情報量は直線のままです。</translation>
    </message>
    <message>
        <source>4. DP-chosen steps (categorical)</source>
        <translation>4. DP で選ぶステップ (カテゴリカル)</translation>
    </message>
    <message>
        <source>One position: every path costs the same</source>
        <translation>位置が 1 つ: どの経路もコストは同じ</translation>
    </message>
    <message>
        <source>&lt;p&gt;The curve is J(n − 1, n), the cost in nats of one step of the fine grid; a trajectory of a few steps pays J(s, t) for each of its jumps, and their sum is the negative ELBO it decides. With one position and the exact denoiser the reverse chain is exact, so every trajectory costs the same: H(X₀ | C). The status line says so.&lt;/p&gt;</source>
        <translation>&lt;p&gt;曲線は J(n − 1, n)、細かい格子の 1 ステップのコスト (nat) です。数ステップの軌跡はそれぞれの跳びについて J(s, t) を払い、その和がその軌跡で決まる負の ELBO です。位置が 1 つで厳密なデノイザのとき、逆過程の連鎖は厳密なので、どの軌跡もコストは同じ H(X₀ | C) になります。ステータス行にもそう示されます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare the even and the DP value in the status line: they agree to the last digit.</source>
        <translation>ステータス行の等間隔と DP の値を比べてください。最後の桁まで一致します。</translation>
    </message>
    <message>
        <source>Two positions, even steps</source>
        <translation>位置が 2 つ、等間隔のステップ</translation>
    </message>
    <message>
        <source>&lt;p&gt;Now the data are pairs (x1, x2) of K = 3 classes that are strongly correlated, and the denoiser predicts each position on its own. Large steps lose the correlation, so the choice of steps matters. The 10 steps here are evenly spaced.&lt;/p&gt;</source>
        <translation>&lt;p&gt;今度のデータは、強く相関した K = 3 クラスの組 (x1, x2) で、デノイザは各位置を別々に予測します。大きなステップでは相関が失われるので、ステップの選び方が効いてきます。ここでの 10 ステップは等間隔です。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Read the even trajectory&apos;s negative ELBO in the status line.</source>
        <translation>ステータス行で等間隔の軌跡の負の ELBO を読んでください。</translation>
    </message>
    <message>
        <source>Two positions, the DP optimum</source>
        <translation>位置が 2 つ、DP の最適解</translation>
    </message>
    <message>
        <source>&lt;p&gt;Dynamic programming over every trajectory of 10 steps finds the one with the least cost exactly. Its nodes (the markers) gather where the step costs are high.&lt;/p&gt;</source>
        <translation>&lt;p&gt;10 ステップのすべての軌跡にわたる動的計画法が、コストが最小のものを厳密に見つけます。そのノード (マーカー) はステップコストが大きいところに集まります。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare its negative ELBO with the even one. Lower the steps to 3: the DP&apos;s advantage grows as the steps become fewer.</source>
        <translation>その負の ELBO を等間隔のものと比べてください。ステップ数を 3 に下げると、ステップが少ないほど DP の利点が大きくなります。</translation>
    </message>
    <message>
        <source>5. Γ and the optimal reverse variance</source>
        <translation>5. Γ と最適な逆過程の分散</translation>
    </message>
    <message>
        <source>Γ of the exact denoiser</source>
        <translation>厳密なデノイザの Γ</translation>
    </message>
    <message>
        <source>&lt;p&gt;For Gaussian diffusion the best reverse variance depends on the model only through Γₙ, the mean square of the score per dimension. Here the data are the two moons and the model is their exact oracle, so β̄ₙΓₙ ≤ 1 holds everywhere.&lt;/p&gt;</source>
        <translation>&lt;p&gt;ガウス拡散では、最良の逆過程の分散はモデルに Γₙ (1 次元あたりのスコアの二乗平均) を通してのみ依存します。ここではデータは 2 つの三日月、モデルはその厳密なオラクルなので、β̄ₙΓₙ ≤ 1 がどこでも成り立ちます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Raise the samples M in the panel and watch the error bars of Γ shrink.</source>
        <translation>パネルでサンプル数 M を増やし、Γ の誤差棒が縮む様子を見てください。</translation>
    </message>
    <message>
        <source>The optimal variance and its bounds</source>
        <translation>最適な分散とその上下界</translation>
    </message>
    <message>
        <source>&lt;p&gt;From Γ follows the analytic optimal variance σ*² of each reverse step, between its lower and upper bound, next to the two classic choices β̃ (DDPM&apos;s small variance) and β (the large one).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Γ から、各逆過程ステップの解析的な最適分散 σ*² が下界と上界の間に求まり、2 つの古典的な選択 β̃ (DDPM の小さい分散) と β (大きい分散) と並べて示されます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Switch the trajectory to even with 10 and then 100 steps: the classic choices are far from σ*² when the steps are few.</source>
        <translation>軌跡を等間隔にして 10 ステップ、次に 100 ステップにしてください。ステップが少ないと、古典的な選択は σ*² から大きく離れます。</translation>
    </message>
    <message>
        <source>A trained network</source>
        <translation>学習済みのネットワーク</translation>
    </message>
    <message>
        <source>&lt;p&gt;The same quantities for a small trained network instead of the oracle. Its Γ is estimated from its own errors; where the network is poor, Γ moves and so does the variance it prescribes.&lt;/p&gt;</source>
        <translation>&lt;p&gt;オラクルの代わりに、小さな学習済みネットワークでの同じ量です。その Γ はネットワーク自身の誤差から推定されます。ネットワークが不正確なところでは Γ が変わり、それが定める分散も変わります。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare this Γ with the oracle&apos;s of the first step of this lesson.</source>
        <translation>この Γ を、このレッスンの最初のステップのオラクルの Γ と比べてください。</translation>
    </message>
    <message>
        <source>6. Why β̃ fails with few steps</source>
        <translation>6. ステップが少ないと β̃ がうまくいかない理由</translation>
    </message>
    <message>
        <source>Ten steps</source>
        <translation>10 ステップ</translation>
    </message>
    <message>
        <source>&lt;p&gt;Left: DDPM with its small variance β̃; right: Analytic-DDPM, both from the same noise in 10 even steps. β̃ is the right variance only when the steps are small; with large steps it is far too small, and more of DDPM&apos;s samples land off the moons.&lt;/p&gt;</source>
        <translation>&lt;p&gt;左: 小さい分散 β̃ を使う DDPM、右: Analytic-DDPM。どちらも同じノイズから 10 の等間隔ステップで進みます。β̃ が正しい分散なのはステップが小さいときだけで、大きなステップでは小さすぎ、DDPM のサンプルのより多くが三日月から外れます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Play the reverse run (Space) and compare where the points end.</source>
        <translation>逆過程を再生 (Space) して、点が行き着く場所を比べてください。</translation>
    </message>
    <message>
        <source>A hundred steps</source>
        <translation>100 ステップ</translation>
    </message>
    <message>
        <source>&lt;p&gt;With 100 steps each step is small, β̃ is close to the optimal variance and both samplers reach the moons.&lt;/p&gt;</source>
        <translation>&lt;p&gt;100 ステップでは各ステップが小さく、β̃ は最適な分散に近く、どちらのサンプラーも三日月に行き着きます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Lower the number of steps one by one and find where DDPM&apos;s samples start to go wrong.</source>
        <translation>ステップ数を少しずつ下げて、DDPM のサンプルが崩れ始めるところを見つけてください。</translation>
    </message>
    <message>
        <source>The likelihood says the same</source>
        <translation>尤度も同じことを言う</translation>
    </message>
    <message>
        <source>&lt;p&gt;The lab scores DDPM with β̃, DDPM with β and Analytic-DDPM by their likelihood bound (bits per dimension) and sample quality for 5 to 100 steps.&lt;/p&gt;</source>
        <translation>&lt;p&gt;実験室は、β̃ の DDPM、β の DDPM、Analytic-DDPM を、5 から 100 ステップまで尤度の下界 (ビット/次元) とサンプルの品質で採点します。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Press Run in the view. Which variance wins with 5 steps, and with 100?</source>
        <translation>ビューの「実行」を押してください。5 ステップと 100 ステップでどの分散が勝ちますか。</translation>
    </message>
    <message>
        <source>7. DP and even trajectories (Gaussian)</source>
        <translation>7. DP と等間隔の軌跡 (ガウス)</translation>
    </message>
    <message>
        <source>Even timesteps</source>
        <translation>等間隔の時刻</translation>
    </message>
    <message>
        <source>&lt;p&gt;The heatmap shows the cost J(s, t) of every possible jump from s to t; a trajectory of 10 steps is a path through it, and its total cost is the part of the NLL it decides. Here the timesteps are evenly spaced.&lt;/p&gt;</source>
        <translation>&lt;p&gt;ヒートマップは、s から t へのあらゆる跳びのコスト J(s, t) を示します。10 ステップの軌跡はその中の経路で、その総コストが NLL のうち軌跡で決まる部分です。ここでは時刻は等間隔です。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Read the total cost ΣJ and the listed timesteps.</source>
        <translation>総コスト ΣJ と、一覧の時刻を読んでください。</translation>
    </message>
    <message>
        <source>The DP-optimal timesteps</source>
        <translation>DP 最適の時刻</translation>
    </message>
    <message>
        <source>&lt;p&gt;The DP finds the 10 timesteps with the least total cost; it spends more of them near the data (small n), where the steps are expensive.&lt;/p&gt;</source>
        <translation>&lt;p&gt;DP は総コストが最小となる 10 個の時刻を見つけます。ステップが高くつくデータの近く (小さい n) に、より多くの時刻を使います。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare ΣJ with the even trajectory&apos;s, and copy the timesteps with the list&apos;s Copy button.</source>
        <translation>ΣJ を等間隔の軌跡のものと比べ、一覧の「コピー」ボタンで時刻をコピーしてください。</translation>
    </message>
    <message>
        <source>Across the number of steps</source>
        <translation>ステップ数を変えて</translation>
    </message>
    <message>
        <source>&lt;p&gt;The lab runs even and DP timesteps with the analytic variance from 5 to 100 steps and plots the NLL against the number of steps.&lt;/p&gt;</source>
        <translation>&lt;p&gt;実験室は、解析的な分散で等間隔と DP の時刻を 5 から 100 ステップまで実行し、ステップ数に対する NLL を描きます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Press Run. Where is the DP&apos;s advantage largest?</source>
        <translation>「実行」を押してください。DP の利点が最も大きいのはどこですか。</translation>
    </message>
    <message>
        <source>8. Masked diffusion and its ELBO</source>
        <translation>8. マスク拡散とその ELBO</translation>
    </message>
    <message>
        <source>A mask state</source>
        <translation>マスク状態</translation>
    </message>
    <message>
        <source>&lt;p&gt;Masked (absorbing) diffusion adds a class of its own, the mask, and puts all of π on it: a chain that is redrawn becomes masked and stays so. The reverse process unmasks the chains one by one.&lt;/p&gt;</source>
        <translation>&lt;p&gt;マスク (吸収) 拡散は、マスクという専用のクラスを加え、π のすべてをそこに置きます。引き直された連鎖はマスクされ、そのままになります。逆過程は連鎖のマスクを 1 つずつ外していきます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Play the forward run and watch the chains collect in the mask lane.</source>
        <translation>順過程を再生して、連鎖がマスクのレーンに集まる様子を見てください。</translation>
    </message>
    <message>
        <source>The ELBO does not depend on the schedule</source>
        <translation>ELBO はスケジュールによらない</translation>
    </message>
    <message>
        <source>&lt;p&gt;With infinitely many steps the negative ELBO of masked diffusion is a weighted cross-entropy, and with the exact denoiser it equals the entropy of the data whatever the schedule. The data are now the correlated pairs of lesson 4 with a linear schedule; the status line gives the continuous-time value and the N-step ones, which approach it from above as N grows.&lt;/p&gt;</source>
        <translation>&lt;p&gt;ステップ数が無限のとき、マスク拡散の負の ELBO は重み付きのクロスエントロピーであり、厳密なデノイザではスケジュールによらずデータのエントロピーに等しくなります。ここではデータはレッスン 4 の相関した組で、スケジュールは線形です。ステータス行には連続時間の値と N ステップの値が示され、N が増えるにつれて後者は上から前者に近づきます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Note the continuous-time value, then go to the next step.</source>
        <translation>連続時間の値を控えてから、次のステップへ進んでください。</translation>
    </message>
    <message>
        <source>Another schedule, the same ELBO</source>
        <translation>別のスケジュール、同じ ELBO</translation>
    </message>
    <message>
        <source>&lt;p&gt;The cosine schedule spreads the step costs differently and changes the N-step values, but the continuous-time negative ELBO is the same as with the linear schedule.&lt;/p&gt;</source>
        <translation>&lt;p&gt;コサインスケジュールではステップコストの分布が変わり、N ステップの値も変わりますが、連続時間の負の ELBO は線形スケジュールのときと同じです。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Try the power schedule with different exponents p: the continuous-time value does not move.</source>
        <translation>べき乗スケジュールで指数 p をいろいろ変えてみてください。連続時間の値は動きません。</translation>
    </message>
    <message>
        <source>9. Which token first? Decoding masked diffusion</source>
        <translation>9. どのトークンから? マスク拡散の復号</translation>
    </message>
    <message>
        <source>One step loses the correlation</source>
        <translation>1 ステップでは相関が失われる</translation>
    </message>
    <message>
        <source>&lt;p&gt;A masked-diffusion decoder starts with both positions of the pairs masked and unmasks them over N steps. Positions unmasked in the same step are drawn independently from their marginals, so with N = 1 the output is the product of the two marginals. Its KL(data ‖ output) is then the mutual information of the two positions: %1 nats decoded, %2 nats computed from the table.&lt;/p&gt;</source>
        <translation>&lt;p&gt;マスク拡散の復号器は、ペアの 2 つの位置をどちらもマスクした状態から始め、N ステップでマスクを外していきます。同じステップでマスクを外す位置は、それぞれの周辺分布から独立に引かれるので、N = 1 では出力は 2 つの周辺分布の積になります。このとき KL(データ ‖ 出力) は 2 つの位置の相互情報量に等しくなります: 復号から %1 nats、表から計算すると %2 nats です。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Read KL(data ‖ output) at N = 1 in the Decoding view, then follow each sampler as N grows.</source>
        <translation>「復号」ビューで N = 1 の KL(データ ‖ 出力) を読み、N を増やしながら各サンプラーを追ってください。</translation>
    </message>
    <message>
        <source>One token per step reproduces the data</source>
        <translation>1 ステップに 1 トークンならデータが再現される</translation>
    </message>
    <message>
        <source>&lt;p&gt;With N = 2 = D steps of the linear schedule the ordered samplers unmask one position per step; the second is drawn given the first, so with the exact denoiser the output is the data whatever the order: confidence with sampled values has KL(data ‖ output) = %1 nats. The Trajectories view now animates that sampler: each chain unmasks first the position whose predicted distribution is the most confident.&lt;/p&gt;</source>
        <translation>&lt;p&gt;linear スケジュールで N = 2 = D ステップなら、順序付きサンプラーは 1 ステップに 1 つの位置のマスクを外します。2 つ目は 1 つ目を条件として引かれるので、厳密なデノイザーでは順序によらず出力はデータそのものです: 値をサンプルする確信度順では KL(データ ‖ 出力) = %1 nats です。「軌跡」ビューはいまこのサンプラーを再生します: 各チェーンは、予測分布の確信度が最も高い位置から先にマスクを外します。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Play the reverse run and watch which position each chain unmasks first.</source>
        <translation>逆過程を再生し、各チェーンがどの位置から先にマスクを外すかを見てください。</translation>
    </message>
    <message>
        <source>Argmax collapses to one sequence</source>
        <translation>argmax は 1 つの系列に潰れる</translation>
    </message>
    <message>
        <source>&lt;p&gt;The same order with argmax values always decodes the same sequence %1: its entropy is %2 nats against the data&apos;s %3, and KL(data ‖ output) is infinite (a triangle above the chart). A low temperature goes the same way gradually.&lt;/p&gt;</source>
        <translation>&lt;p&gt;同じ順序で値を argmax で選ぶと、いつも同じ系列 %1 が復号されます: そのエントロピーはデータの %3 に対して %2 nats で、KL(データ ‖ 出力) は無限大です (グラフの上の三角)。低い温度も徐々に同じ方向へ進みます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Add a sampler with values=temperature:0.3 and compare its entropy with the sampled and the argmax values.</source>
        <translation>values=temperature:0.3 のサンプラーを追加し、そのエントロピーを、値をサンプルした場合と argmax の場合と比べてください。</translation>
    </message>
    <message>
        <source>LLaDA draws first, then ranks</source>
        <translation>LLaDA は先に引いてから順位を付ける</translation>
    </message>
    <message>
        <source>&lt;p&gt;LLaDA&apos;s low-confidence decoding draws a value at every masked position first and then keeps the positions whose drawn value the model finds most probable. At N = 2 = D, one token per step, its KL(data ‖ output) is %1 nats, where LLaDA&apos;s random order gives %2 nats and the confidence order above reproduces the data: choosing the position after seeing the draw favours the values that were likely anyway, and the output loses some of the data&apos;s variety.&lt;/p&gt;</source>
        <translation>&lt;p&gt;LLaDA の low-confidence 復号は、まずマスクされたすべての位置で値を引き、引いた値をモデルが最も確からしいとみなす位置を残します。N = 2 = D (1 ステップに 1 トークン) で、その KL(data ‖ output) は %1 nat です。LLaDA のランダム順では %2 nat、上の確信度順はデータをそのまま再現します。引いた値を見てから位置を選ぶと、もともと出やすい値が優遇され、出力はデータの多様さの一部を失います。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare the two LLaDA rows as N grows, and add llada:low_confidence again with temperature=0.5 in its sampler string (Add preset).</source>
        <translation>N を増やしながら LLaDA の 2 行を比べ、llada:low_confidence をもう一度追加してサンプラー文字列に temperature=0.5 を書き足してください (プリセットを追加)。</translation>
    </message>
    <message>
        <source>10. Which letter first? Decoding text</source>
        <translation>10. どの文字から? テキストの復号</translation>
    </message>
    <message>
        <source>One letter per step reproduces the chain</source>
        <translation>1 ステップに 1 文字なら連鎖が再現される</translation>
    </message>
    <message>
        <source>&lt;p&gt;The Decoding view now decodes sequences of %1 letters of a Markov chain fitted on English text. Its denoiser is exact for any mask pattern and every decoded sequence has a true likelihood, so what the charts show is the sampler's own error. LLaDA's random order with N = %1 unmasks one letter per step, drawn given the letters already there: its cross-entropy is %2 nats per letter, the chain's own entropy is %3, and its adjacent letters are as close to the chain's as the sequences allow (pair TV %4).&lt;/p&gt;</source>
        <translation>&lt;p&gt;「復号」ビューはいま、英語のテキストに当てはめたマルコフ連鎖の %1 文字の系列を復号します。そのデノイザはどのマスクの型に対しても厳密で、復号された系列にはどれも真の尤度があるので、グラフが示すのはサンプラー自身の誤差です。N = %1 の LLaDA のランダム順は 1 ステップに 1 文字ずつ、すでにある文字を条件として引いてマスクを外します: そのクロスエントロピーは 1 文字あたり %2 nat、連鎖自身のエントロピーは %3 nat で、隣り合う文字の組は系列数が許す限り連鎖のものに近くなります (ペアの TV %4)。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Choose llada:random at N = %1 under Text and commits of, and read its text: it looks like English letters, if not like English words.</source>
        <translation>「テキストと確定」で llada:random と N = %1 を選び、そのテキストを読んでください: 英語の単語ではないにしても、英語の文字の並びに見えます。</translation>
    </message>
    <message>
        <source>Confidence decoding: likelier text, repeated words</source>
        <translation>確信度順の復号: より確からしいテキスト、繰り返される単語</translation>
    </message>
    <message>
        <source>&lt;p&gt;LLaDA's low-confidence decoding unmasks first the positions whose drawn letter the denoiser finds most probable. At N = %1 its cross-entropy is %2 nats per letter, below the chain's own %3: its text is more likely than the chain's own text. It reads "%4…": the likeliest letters, repeated, and its adjacent letters are far from the chain's (pair TV %5 against %6 for random order). A cross-entropy below the dashed line is lost variety, not a better sampler.&lt;/p&gt;</source>
        <translation>&lt;p&gt;LLaDA の low-confidence 復号は、引いた文字をデノイザが最も確からしいとみなす位置から先にマスクを外します。N = %1 でそのクロスエントロピーは 1 文字あたり %2 nat で、連鎖自身の %3 nat を下回ります: そのテキストは連鎖自身のテキストより確からしいのです。読むと「%4…」: 最も出やすい文字の繰り返しで、隣り合う文字の組は連鎖のものから遠く離れています (ペアの TV はランダム順の %6 に対して %5)。破線より低いクロスエントロピーは多様さを失った結果であって、より良いサンプラーの印ではありません。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Choose llada:low_confidence at N = %1 and drag Text after step from 0: which letters come first, and where?</source>
        <translation>llada:low_confidence と N = %1 を選び、「ステップ後のテキスト」を 0 から動かしてください: どの文字が、どこから先に現れますか。</translation>
    </message>
</context>
<context>
    <name>ui::CategoricalExplorer</name>
    <message>
        <source>Model: %1 — using the exact oracle.</source>
        <translation>モデル: %1 — 厳密なオラクルを使います。</translation>
    </message>
    <message>
        <source>DP-optimal nodes</source>
        <translation>DP 最適なノード</translation>
    </message>
    <message>
        <source>trajectory nodes</source>
        <translation>軌跡のノード</translation>
    </message>
    <message>
        <source>The step-cost matrix needs about %1 kernel evaluations at N = %2 with %3 steps: reduce N or the steps to compute the DP path.</source>
        <translation>N = %2、%3 ステップではステップコスト行列に約 %1 回のカーネル評価が必要です。DP 経路を計算するには N かステップ数を小さくしてください。</translation>
    </message>
    <message>
        <source>Computing step costs…</source>
        <translation>ステップコストを計算しています…</translation>
    </message>
    <message>
        <source>The DP needs exact step costs between every pair of steps, out of reach for this data: the even trajectory is used.</source>
        <translation>DP にはすべてのステップの組の厳密なステップコストが必要ですが、このデータでは計算できません。等間隔の軌跡を使います。</translation>
    </message>
    <message>
        <source>Cancelled; the charts show the previous results.</source>
        <translation>キャンセルしました。グラフは前回の結果を表示しています。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>キャンセルしました。</translation>
    </message>
    <message>
        <source>Decoding samplers need a mask state: choose π = masked (the absorbing state) in the process panel.</source>
        <translation>復号サンプラーにはマスク状態が必要です: 過程パネルで π = masked:K (吸収状態) を選んでください。</translation>
    </message>
    <message>
        <source>Row %1: %2</source>
        <translation>%1 行目: %2</translation>
    </message>
    <message>
        <source>No sampler to run: add one.</source>
        <translation>実行するサンプラーがありません。追加してください。</translation>
    </message>
    <message>
        <source>Decoding…</source>
        <translation>復号中…</translation>
    </message>
    <message>
        <source>Exact output distributions (every partially masked sequence propagated) at N = %1.</source>
        <translation>N = %1 までの厳密な出力分布 (部分的にマスクされたすべての系列を伝播)。</translation>
    </message>
    <message>
        <source>Monte Carlo at N = %1: %2 chains per condition (the exact output needs (K + 1)ᴰ = %3 states, over the limit %4); KL(data ‖ output) is infinite whenever a data sequence was never decoded.</source>
        <translation>N = %1 でモンテカルロ: 条件ごとに %2 チェーン (厳密な出力には (K + 1)ᴰ = %3 状態が必要で、上限 %4 を超えます)。一度も復号されなかったデータ系列があると KL(データ ‖ 出力) は無限大です。</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完了しました。</translation>
    </message>
    <message>
        <source>Monte Carlo at N = %1: %2 decoded images per label, judged as images: the share a nearest-class-mean classifier fitted on the real training images recognises as their label, and the mean entropy of each pixel (dashed: the real training images&apos; own).</source>
        <translation>N = %1 でモンテカルロ: ラベルごとに %2 枚を復号し、画像として評価します: 実際の学習画像に当てはめた最近傍クラス平均分類器がそのラベルと認める割合と、各画素の平均エントロピーです (破線: 実際の学習画像自身の値)。</translation>
    </message>
    <message>
        <source>The DP path needs about %1 kernel evaluations at N = %2 with %3 classes, out of reach: the costs of the path in use are shown. Reduce N to compute the DP path.</source>
        <translation>DP 経路には N = %2、%3 クラスで約 %1 回のカーネル評価が必要で、手が届きません。使用中の経路のコストを表示しています。DP 経路を計算するには N を減らしてください。</translation>
    </message>
    <message>
        <source>Monte Carlo at N = %1: %2 sequences of %3 letters per sampler and N, decoded with the chain's exact denoiser and judged by their true likelihood. Cross-entropy is −log p_chain(x)/D (dashed: the chain's own entropy, %4 nats per letter, which one letter per step in random order reaches); pair TV compares the decoded adjacent letters with the chain's.</source>
        <translation>N = %1 でのモンテカルロ: サンプラーと N ごとに %3 文字の系列を %2 個、連鎖の厳密なデノイザで復号し、真の尤度で評価します。クロスエントロピーは −log p_chain(x)/D です (破線: 連鎖自身のエントロピー、1 文字あたり %4 nat。ランダム順で 1 ステップに 1 文字ならここに達します)。ペアの TV は、復号された隣り合う文字の組を連鎖のものと比べます。</translation>
    </message>
</context>
<context>
    <name>ui::ExplanationPane</name>
    <message>
        <source>Explanation</source>
        <translation>解説</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1&lt;/h3&gt;&lt;p&gt;&lt;b&gt;What it shows.&lt;/b&gt; %2&lt;/p&gt;&lt;p&gt;&lt;b&gt;How to read it.&lt;/b&gt; %3&lt;/p&gt;&lt;p&gt;&lt;b&gt;Try this.&lt;/b&gt; %4&lt;/p&gt;</source>
        <translation>&lt;h3&gt;%1&lt;/h3&gt;&lt;p&gt;&lt;b&gt;何を示すか。&lt;/b&gt; %2&lt;/p&gt;&lt;p&gt;&lt;b&gt;読み方。&lt;/b&gt; %3&lt;/p&gt;&lt;p&gt;&lt;b&gt;試してみよう。&lt;/b&gt; %4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Now.</source>
        <translation>現在の値。</translation>
    </message>
    <message>
        <source>&lt;p&gt;No explanation for this view.&lt;/p&gt;</source>
        <translation>&lt;p&gt;このビューの解説はありません。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Out of date: the new results are being computed.</source>
        <translation>古い結果です: 新しい結果を計算中です。</translation>
    </message>
</context>
<context>
    <name>ui::GaussianExplorer</name>
    <message>
        <source>Use as typed list</source>
        <translation>入力リストとして使う</translation>
    </message>
    <message>
        <source>Use as typed list: </source>
        <translation>入力リストとして使う: </translation>
    </message>
    <message>
        <source>Computing the NLL against the number of steps…</source>
        <translation>ステップ数に対する NLL を計算しています…</translation>
    </message>
    <message>
        <source>Computing the NLL against the number of steps: %1 (%2%)…</source>
        <translation>ステップ数に対する NLL を計算しています: %1 (%2%)…</translation>
    </message>
    <message>
        <source>Cancelled; the curves shown are the previous ones.</source>
        <translation>キャンセルしました。表示中の曲線は前回のものです。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>キャンセルしました。</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 に失敗しました: %2</translation>
    </message>
    <message>
        <source>Sampling particles…</source>
        <translation>粒子をサンプリングしています…</translation>
    </message>
    <message>
        <source>Particle sampling cancelled.</source>
        <translation>粒子のサンプリングをキャンセルしました。</translation>
    </message>
    <message>
        <source>Running the lab…</source>
        <translation>実験室を実行しています…</translation>
    </message>
    <message>
        <source>Cancelled; the charts show the previous run.</source>
        <translation>キャンセルしました。グラフは前回の実行結果です。</translation>
    </message>
    <message>
        <source>Add a configuration or pick a preset first.</source>
        <translation>先に設定を追加するか、プリセットを選んでください。</translation>
    </message>
    <message>
        <source>Wait for Γ of the current parameters, then press again.</source>
        <translation>現在のパラメータの Γ が求まるのを待ってから、もう一度押してください。</translation>
    </message>
    <message>
        <source>Estimating Γ with M = %1 samples per timestep…</source>
        <translation>時刻ごとに M = %1 サンプルで Γ を推定しています…</translation>
    </message>
    <message>
        <source>Model: %1 — using the exact oracle.</source>
        <translation>モデル: %1 — 厳密なオラクルを使います。</translation>
    </message>
    <message>
        <source> Resumed after n = %1, where a cancel had stopped it.</source>
        <translation> キャンセルで止まった n = %1 の後から再開しました。</translation>
    </message>
    <message>
        <source> Kept from a run cancelled after Γ was done.</source>
        <translation> Γ の計算後にキャンセルされた実行の結果を残しています。</translation>
    </message>
    <message>
        <source> (Γ over its bound at %1 timesteps)</source>
        <translation> (%1 個の時刻で Γ が上界を超過)</translation>
    </message>
    <message>
        <source>Γ is not computed yet</source>
        <translation>Γ はまだ計算されていません</translation>
    </message>
    <message>
        <source>network</source>
        <translation>ネットワーク</translation>
    </message>
    <message>
        <source>oracle</source>
        <translation>オラクル</translation>
    </message>
    <message>
        <source> Γ imported from %1.</source>
        <translation> Γ は %1 から読み込みました。</translation>
    </message>
    <message>
        <source> Γ saved with the project.</source>
        <translation> Γ はプロジェクトに保存されたものです。</translation>
    </message>
    <message>
        <source>estimated from M = %1 samples</source>
        <translation>M = %1 サンプルから推定</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>%1 から読み込み</translation>
    </message>
    <message>
        <source>saved with the project</source>
        <translation>プロジェクトに保存済み</translation>
    </message>
    <message>
        <source>scores %1 with Γ %2</source>
        <translation>%1 を Γ (%2) で評価</translation>
    </message>
    <message>
        <source>the network %1</source>
        <translation>ネットワーク %1</translation>
    </message>
    <message>
        <source>the exact oracle</source>
        <translation>厳密なオラクル</translation>
    </message>
</context>
<context>
    <name>ui::MainWindow</name>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>システムの既定</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>The language changes when Diffuscope restarts.</source>
        <translation>言語の変更は Diffuscope の再起動後に有効になります。</translation>
    </message>
    <message>
        <source>Diffuscope projects (*.diffuscope.json *.json)</source>
        <translation>Diffuscope プロジェクト (*.diffuscope.json *.json)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Example project: K = 4, a non-uniform π and two conditions.</source>
        <translation>サンプルプロジェクト: K = 4、一様でない π、2 つの条件。</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>Schedule &amp;&amp; information</source>
        <translation>スケジュールと情報量</translation>
    </message>
    <message>
        <source>Matrices</source>
        <translation>遷移行列</translation>
    </message>
    <message>
        <source>Kernel comparison</source>
        <translation>カーネルの比較</translation>
    </message>
    <message>
        <source>Particles</source>
        <translation>粒子</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>軌跡 (ステップ選択)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>実験室</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>過程</translation>
    </message>
    <message>
        <source> Process: </source>
        <translation> 過程: </translation>
    </message>
    <message>
        <source>Categorical diffusion</source>
        <translation>カテゴリカル拡散</translation>
    </message>
    <message>
        <source>Gaussian diffusion (Analytic-DPM)</source>
        <translation>ガウス拡散 (Analytic-DPM)</translation>
    </message>
    <message>
        <source>Categorical diffusion (the closed-form reverse kernel) or Gaussian diffusion (Analytic-DPM: Γ, the optimal variance and the DP trajectory). Ctrl+1 / Ctrl+2.</source>
        <translation>カテゴリカル拡散 (閉形式の逆過程カーネル) またはガウス拡散 (Analytic-DPM: Γ、最適分散、DP による軌跡)。Ctrl+1 / Ctrl+2。</translation>
    </message>
    <message>
        <source>Cancel the running computation (Esc)</source>
        <translation>実行中の計算をキャンセル (Esc)</translation>
    </message>
    <message>
        <source>Change seed</source>
        <translation>シードの変更</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 が完了しました</translation>
    </message>
    <message>
        <source>%1 cancelled</source>
        <translation>%1 をキャンセルしました</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 に失敗しました: %2</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>パラメータ</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直す(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新規(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>プロジェクトを開く</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>サンプル(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export view…</source>
        <translation>ビューを書き出し(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;all views…</source>
        <translation>すべてのビューを書き出し(&amp;A)…</translation>
    </message>
    <message>
        <source>Export a&amp;nimation…</source>
        <translation>アニメーションを書き出し(&amp;N)…</translation>
    </message>
    <message>
        <source>Export &amp;Γ…</source>
        <translation>Γ を書き出し(&amp;Γ)…</translation>
    </message>
    <message>
        <source>Open a &amp;model checkpoint…</source>
        <translation>モデルのチェックポイントを開く(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a model checkpoint</source>
        <translation>モデルのチェックポイントを開く</translation>
    </message>
    <message>
        <source>&amp;Train a model…</source>
        <translation>モデルを学習(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Categorical diffusion</source>
        <translation>カテゴリカル拡散(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Gaussian diffusion</source>
        <translation>ガウス拡散(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Explanation</source>
        <translation>解説(&amp;E)</translation>
    </message>
    <message>
        <source>What the views on screen show, how to read them, what to try, and their current numbers.</source>
        <translation>画面上のビューが何を示すか、その読み方、試すとよいこと、現在の数値。</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>プレゼンテーションモード(&amp;P)</translation>
    </message>
    <message>
        <source>Full screen with the views only, text and lines large enough for a projector (F11 again to leave).</source>
        <translation>ビューだけの全画面表示。文字と線をプロジェクター向けに大きくします (もう一度 F11 で終了)。</translation>
    </message>
    <message>
        <source>View %1</source>
        <translation>ビュー %1</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>再生(&amp;P)</translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation>再生 / 一時停止</translation>
    </message>
    <message>
        <source>Step forward</source>
        <translation>1 ステップ進む</translation>
    </message>
    <message>
        <source>Step back</source>
        <translation>1 ステップ戻る</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Mathematics</source>
        <translation>数学的背景(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;About Diffuscope</source>
        <translation>Diffuscope について(&amp;A)</translation>
    </message>
    <message>
        <source>About Diffuscope</source>
        <translation>Diffuscope について</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Diffuscope %1&lt;/b&gt; — an explorer for diffusion processes.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Categorical diffusion&lt;/b&gt;: the forward process P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ and the closed-form reverse kernel that turns a denoiser F(i | j, C, t) = P(X₀ = i | Xₜ = j, C) into P(Xₛ | Xₜ), after the categorical diffusion derivation this project started from.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Analytic-DPM&lt;/b&gt;: the analytic optimal reverse variance and the optimal trajectory of Bao, Li, Zhu and Zhang, &lt;i&gt;Analytic-DPM: an Analytic Estimate of the Optimal Reverse Variance in Diffusion Probabilistic Models&lt;/i&gt;, ICLR 2022.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Diffuscope %1&lt;/b&gt; — 拡散過程を探索するためのツール。&lt;/p&gt;&lt;p&gt;&lt;b&gt;カテゴリカル拡散&lt;/b&gt;: 順過程 P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ と、デノイザ F(i | j, C, t) = P(X₀ = i | Xₜ = j, C) を P(Xₛ | Xₜ) に変換する閉形式の逆過程カーネル。本プロジェクトの出発点となったカテゴリカル拡散の導出に基づきます。&lt;/p&gt;&lt;p&gt;&lt;b&gt;Analytic-DPM&lt;/b&gt;: Bao, Li, Zhu, Zhang による解析的な最適逆過程分散と最適軌跡 (&lt;i&gt;Analytic-DPM: an Analytic Estimate of the Optimal Reverse Variance in Diffusion Probabilistic Models&lt;/i&gt;, ICLR 2022)。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Recovered project (unsaved)</source>
        <translation>復元したプロジェクト (未保存)</translation>
    </message>
    <message>
        <source>Example project</source>
        <translation>サンプルプロジェクト</translation>
    </message>
    <message>
        <source>%1%2 — Diffuscope</source>
        <translation>%1%2 — Diffuscope</translation>
    </message>
    <message>
        <source>Opening %1</source>
        <translation>%1 を開いています</translation>
    </message>
    <message>
        <source>The project was not opened.

%1</source>
        <translation>プロジェクトを開けませんでした。

%1</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 を開きました</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>プロジェクトを保存</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>%1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Using the model %1</source>
        <translation>モデル %1 を使用しています</translation>
    </message>
    <message>
        <source>The model does not fit the current data (see the panel).</source>
        <translation>モデルが現在のデータに合いません (パネルを参照)。</translation>
    </message>
    <message>
        <source>Export Γ</source>
        <translation>Γ を書き出し</translation>
    </message>
    <message>
        <source>Γ as CSV (*.csv);;ms_eps as NPY (*.npy)</source>
        <translation>Γ (CSV) (*.csv);;ms_eps (NPY) (*.npy)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 を書き出しました</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存の変更</translation>
    </message>
    <message>
        <source>The project has unsaved changes. Save them first?</source>
        <translation>プロジェクトに未保存の変更があります。先に保存しますか?</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自動保存に失敗しました: %1</translation>
    </message>
    <message>
        <source>Recover project</source>
        <translation>プロジェクトの復元</translation>
    </message>
    <message>
        <source>Diffuscope did not close cleanly last time. Restore the unsaved project it was working on?</source>
        <translation>前回 Diffuscope は正常に終了しませんでした。作業中だった未保存のプロジェクトを復元しますか?</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>保存日時: %1</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>復元</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>破棄</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>後で</translation>
    </message>
    <message>
        <source>The recovery copy was not restored.

%1</source>
        <translation>復元用のコピーを復元できませんでした。

%1</translation>
    </message>
    <message>
        <source>Recovered the unsaved project; save it under a name.</source>
        <translation>未保存のプロジェクトを復元しました。名前を付けて保存してください。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>書き出し</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 を書き出しました</translation>
    </message>
    <message>
        <source>Export all views</source>
        <translation>すべてのビューを書き出し</translation>
    </message>
    <message>
        <source>Exported every view to %1</source>
        <translation>すべてのビューを %1 に書き出しました</translation>
    </message>
    <message>
        <source>Export animation</source>
        <translation>アニメーションを書き出し</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>レッスン(&amp;L)</translation>
    </message>
    <message>
        <source>Guided lessons: each step loads a project, shows a view and says what to look at and what to try.</source>
        <translation>ガイド付きのレッスン: 各ステップがプロジェクトを読み込み、ビューを表示し、見るべきところと試すことを示します。</translation>
    </message>
    <message>
        <source>Nothing to export yet: the animation has no frames.</source>
        <translation>まだ書き出すものがありません: アニメーションにフレームがありません。</translation>
    </message>
    <message>
        <source>PNG frame sequence (*.png)</source>
        <translation>PNG の連番フレーム (*.png)</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>アニメーション GIF (*.gif)</translation>
    </message>
    <message>
        <source>Rendering the animation…</source>
        <translation>アニメーションを描画しています…</translation>
    </message>
    <message>
        <source>Animation export cancelled</source>
        <translation>アニメーションの書き出しを取り消しました</translation>
    </message>
    <message>
        <source>Models (*.safetensors *.pt);;Checkpoints (*.safetensors);;TorchScript models (*.pt)</source>
        <translation>モデル (*.safetensors *.pt);;チェックポイント (*.safetensors);;TorchScript モデル (*.pt)</translation>
    </message>
    <message>
        <source>%1: a view is exported as .png, .svg, .pdf or .csv</source>
        <translation>%1: ビューは .png、.svg、.pdf または .csv として書き出します</translation>
    </message>
    <message>
        <source>%1: an animation is exported as .gif or as .png (a sequence of PNG frames)</source>
        <translation>%1: アニメーションは .gif または .png（PNG フレームの連番）として書き出します</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>復号</translation>
    </message>
</context>
<context>
    <name>ui::MathHelpDialog</name>
    <message>
        <source>Back</source>
        <translation>戻る</translation>
    </message>
    <message>
        <source>Mathematics — Diffuscope</source>
        <translation>数学的背景 — Diffuscope</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>目次</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>ui::SafeApplication</name>
    <message>
        <source>Out of memory: the last action needed more memory than is available and was abandoned.</source>
        <translation>メモリ不足: 直前の操作は利用可能な量を超えるメモリを必要としたため中止しました。</translation>
    </message>
    <message>
        <source>The last action failed: %1</source>
        <translation>直前の操作に失敗しました: %1</translation>
    </message>
    <message>
        <source>The last action failed with an unknown error.</source>
        <translation>直前の操作が不明なエラーで失敗しました。</translation>
    </message>
    <message>
        <source>Diffuscope</source>
        <translation>Diffuscope</translation>
    </message>
    <message>
        <source>

The project is still open; save your work.</source>
        <translation>

プロジェクトは開いたままです。作業内容を保存してください。</translation>
    </message>
</context>
<context>
    <name>ui::ViewExplanations</name>
    <message>
        <source>Trajectories</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>Chains of K classes moving under the forward process x₀ → x₁ (each step keeps the class with probability (1 − βₜ)/(1 − βₛ), else redraws it from π) and under the reverse sampler x₁ → x₀ (the closed-form kernel q(xₛ | xₜ) built from the denoiser F). Each lane is one class; the red outlines are the exact marginal at the current time, the blue bars the chains' share, the dots the chains.</source>
        <translation>K 個のクラスを取る連鎖が、順過程 x₀ → x₁ (各ステップで確率 (1 − βₜ)/(1 − βₛ) でクラスを保ち、そうでなければ π から引き直す) と逆過程サンプラー x₁ → x₀ (デノイザ F から作った閉形式のカーネル q(xₛ | xₜ)) のもとで動く様子です。各レーンが 1 つのクラスで、赤い枠は現在の時刻での厳密な周辺分布、青い棒は連鎖の割合、点は連鎖です。</translation>
    </message>
    <message>
        <source>Compare the blue bars with the red outlines: when the chains are right, each bar fills its outline. Forward, everything drifts towards π; in reverse, the chains return to the data distribution of the chosen condition.</source>
        <translation>青い棒と赤い枠を比べてください。連鎖が正しければ、各棒はその枠をちょうど満たします。順過程ではすべてが π に近づき、逆過程では連鎖が選んだ条件のデータ分布に戻ります。</translation>
    </message>
    <message>
        <source>Play the forward process with a very non-uniform π and watch where the mass goes. Reduce the number of path steps: with one position, the exact denoiser and the closed-form kernel, the chains still end on the data at any number of steps; with several positions, fewer steps miss the dependence between them. Switch the kernel to the D3PM form and, unless π is uniform, they miss the data (Kernel comparison view).</source>
        <translation>非常に一様でない π で順過程を再生し、質量がどこへ行くかを見てください。経路のステップ数を減らしてみてください。位置が 1 つで、厳密なデノイザーと閉形式カーネルを使うなら、ステップ数がいくつでも連鎖はデータに行き着きます。位置が複数あると、ステップが少ないほど位置どうしの依存を取りこぼします。カーネルを D3PM 形式に切り替えると、π が一様でない限り連鎖はデータから外れます (カーネル比較ビュー)。</translation>
    </message>
    <message>
        <source>Schedule &amp; information</source>
        <translation>スケジュールと情報量</translation>
    </message>
    <message>
        <source>β(t), the probability that a class has been redrawn from π by time t, with 1 − β(t) (left axis), the mutual information I(X₀;Xₜ) in bits between the data and its noisy version (right axis), the impurity Gₜ, and the nodes of the trajectory in use.</source>
        <translation>β(t) (時刻 t までにクラスが π から引き直されている確率) と 1 − β(t) (左軸)、データとそのノイズ付き版の相互情報量 I(X₀;Xₜ) (ビット、右軸)、不純度 Gₜ、使用中の軌跡のノード。</translation>
    </message>
    <message>
        <source>I(X₀;Xₜ) falls from H(X₀) at t = 0 to 0 at t = 1: how fast it falls is what the schedule decides. Nodes crowded where the information changes fast mean a trajectory that spends its steps where they matter.</source>
        <translation>I(X₀;Xₜ) は t = 0 の H(X₀) から t = 1 の 0 まで減少します。その減り方を決めるのがスケジュールです。情報量が速く変わるところにノードが集まっていれば、その軌跡は必要なところにステップを使っています。</translation>
    </message>
    <message>
        <source>Switch the schedule between linear, cosine and information-linear and watch the information curve straighten. Move the time slider and read β and I at that time.</source>
        <translation>スケジュールを linear、cosine、information-linear と切り替えて、情報量の曲線がまっすぐになる様子を見てください。時刻スライダーを動かして、その時刻での β と I を読み取ってください。</translation>
    </message>
    <message>
        <source>Step costs</source>
        <translation>ステップコスト</translation>
    </message>
    <message>
        <source>J(n − 1, n), the cost of one step of the grid: the expected KL between the true reverse step and the model&apos;s, in nats. Their sum over a trajectory is the part of the negative ELBO that the trajectory decides.</source>
        <translation>J(n − 1, n): 格子の 1 ステップのコスト。真の逆過程ステップとモデルのステップの間の KL の期待値 (nat) です。軌跡に沿ったその和が、負の ELBO のうち軌跡で決まる部分です。</translation>
    </message>
    <message>
        <source>High points of the curve are steps where the process changes the data most; a good trajectory puts more nodes there. The DP trajectory minimises the summed cost exactly.</source>
        <translation>曲線の高いところは過程がデータを最も大きく変えるステップです。良い軌跡はそこに多くのノードを置きます。DP の軌跡はコストの和を厳密に最小化します。</translation>
    </message>
    <message>
        <source>Compare the costs under the linear and cosine schedules. Choose the DP trajectory and see its nodes gather where the curve is high.</source>
        <translation>linear と cosine のスケジュールでコストを比べてください。DP の軌跡を選ぶと、ノードが曲線の高いところに集まる様子がわかります。</translation>
    </message>
    <message>
        <source>Matrices</source>
        <translation>遷移行列</translation>
    </message>
    <message>
        <source>Each row sums to 1. Bright cells are likely transitions: P₀,ₜ fades from the identity to rows equal to π as t grows; Q sharpens towards the data as s → 0.</source>
        <translation>各行の和は 1 です。明るいマスは起こりやすい遷移です。t が大きくなると P₀,ₜ は単位行列からすべての行が π の行列へと移り、s → 0 で Q はデータに向かって鋭くなります。</translation>
    </message>
    <message>
        <source>Move the time slider to the start and to the end and watch P₀,ₜ change from I to 1πᵀ. Hover a cell to read its value and formula.</source>
        <translation>時刻スライダーを始めと終わりに動かし、P₀,ₜ が I から 1πᵀ に変わる様子を見てください。マスにマウスを重ねると値と式が読めます。</translation>
    </message>
    <message>
        <source>Kernel comparison</source>
        <translation>カーネルの比較</translation>
    </message>
    <message>
        <source>Where reverse sampling ends with the closed-form kernel and with the D3PM-style kernel, against the data distribution, per class.</source>
        <translation>閉形式のカーネルと D3PM 型のカーネルで逆過程サンプリングがどこに到達するかを、データ分布と並べてクラスごとに示します。</translation>
    </message>
    <message>
        <source>The closer each kernel&apos;s bars are to the data bars, the better that kernel undoes the forward process with this denoiser and trajectory.</source>
        <translation>各カーネルの棒がデータの棒に近いほど、そのカーネルはこのデノイザと軌跡で順過程をうまく元に戻せています。</translation>
    </message>
    <message>
        <source>Change the number of path steps and read the two KLs in the line below the chart: with the exact denoiser the closed form reaches the data at any number of steps, while the D3PM-style kernel (unless π is uniform) misses it, by more as steps are added: each step adds its own error. With a trained network both kernels also carry the network&apos;s error, so neither KL is 0, even with a uniform π.</source>
        <translation>経路のステップ数を変えて、グラフの下の行にある 2 つの KL を読んでください。厳密なデノイザーでは閉形式はステップ数がいくつでもデータに到達しますが、D3PM 形式のカーネルは (π が一様でない限り) データから外れ、ステップを増やすほど外れが大きくなります。各ステップがそれぞれの誤差を加えるからです。訓練済みのネットワークでは、どちらのカーネルにもネットワーク自身の誤差が加わるため、π が一様でもどちらの KL も 0 にはなりません。</translation>
    </message>
    <message>
        <source>Particles</source>
        <translation>粒子</translation>
    </message>
    <message>
        <source>Points pushed through the Gaussian forward process xₜ = √ᾱₜ x₀ + √β̄ₜ ε, then back by two reverse samplers (A and B) started from the same noise. Grey beneath: the density of the data.</source>
        <translation>ガウスの順過程 xₜ = √ᾱₜ x₀ + √β̄ₜ ε で押し流した点を、同じノイズから始めた 2 つの逆過程サンプラー (A と B) で戻します。背景の灰色: データの密度。</translation>
    </message>
    <message>
        <source>At the end of the reverse run the points should cover the grey density: points between the modes or outside it are the samplers&apos; errors. Both panes start from the same points, so differences are the samplers&apos; alone.</source>
        <translation>逆過程の最後には、点が灰色の密度を覆うはずです。モードの間や外側にある点はサンプラーの誤差です。両側とも同じ点から始めるので、違いはサンプラーだけによるものです。</translation>
    </message>
    <message>
        <source>Compare DDPM with Analytic-DDPM with 10 steps: the analytic variance keeps the points on the data. Try 5 steps with the even and the DP trajectory.</source>
        <translation>10 ステップで DDPM と Analytic-DDPM を比べてください。解析的な分散では点がデータ上に留まります。等間隔と DP の軌跡で 5 ステップも試してください。</translation>
    </message>
    <message>
        <source>Γₙ, the mean square of the score per dimension at each timestep n (β̄ₙΓₙ = E‖ε_θ(xₙ, n)‖²/d for the network or the oracle), with its standard error, and the average posterior variance vₙ = (β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) = E Cov[x₀ | xₙ] per dimension.</source>
        <translation>各時刻 n での 1 次元あたりのスコアの二乗平均 Γₙ (ネットワークまたはオラクルについて β̄ₙΓₙ = E‖ε_θ(xₙ, n)‖²/d) とその標準誤差、および 1 次元あたりの事後分散の平均 vₙ = (β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) = E Cov[x₀ | xₙ]。</translation>
    </message>
    <message>
        <source>β̄ₙΓₙ ≤ 1 always holds for an exact model; a curve above that bound means the model or the estimate is off there. vₙ rises from 0 towards the data variance as n grows.</source>
        <translation>厳密なモデルでは常に β̄ₙΓₙ ≤ 1 が成り立ちます。曲線がこの上界を超えていれば、そこではモデルか推定がずれています。n が大きくなると vₙ は 0 からデータの分散に向かって増加します。</translation>
    </message>
    <message>
        <source>Raise the samples M and watch the error bars shrink. Load a network and compare its Γ with the exact oracle&apos;s.</source>
        <translation>サンプル数 M を増やすと誤差棒が縮む様子がわかります。ネットワークを読み込み、その Γ を厳密なオラクルの Γ と比べてください。</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>For each step (s, t) of the trajectory: the optimal reverse variance σ²ₛ|ₜ computed from Γ, its lower and upper bounds, and the DDPM choices β̃ (small) and β (large) for comparison. Points marked were clipped to a bound.</source>
        <translation>軌跡の各ステップ (s, t) について、Γ から計算した最適な逆過程分散 σ²ₛ|ₜ、その下界と上界、比較のための DDPM の選択 β̃ (小) と β (大)。印の付いた点は上下界でクリップされたものです。</translation>
    </message>
    <message>
        <source>The optimal variance always lies between the bounds. At few steps β̃ is far below it — the reason DDPM with β̃ is poor with few steps.</source>
        <translation>最適な分散は常に上下界の間にあります。ステップ数が少ないと β̃ はそれを大きく下回ります。これが、ステップが少ないときに β̃ を使う DDPM の性能が悪い理由です。</translation>
    </message>
    <message>
        <source>Lower the steps to 5 and see the gap between β̃ and the optimum widen. Change the schedule to cosine and compare.</source>
        <translation>ステップ数を 5 まで下げると、β̃ と最適値の差が広がる様子がわかります。スケジュールを cosine に変えて比べてください。</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>軌跡 (ステップ選択)</translation>
    </message>
    <message>
        <source>The timesteps of the DP-optimal, even, quadratic and chosen trajectory as rows of ticks over 1..N, their summed step cost ΣJ, and the cost matrix J(s, t) with the DP path drawn on it. Below: the negative ELBO in bits/dim against the number of steps.</source>
        <translation>DP 最適、等間隔、二次、および選択中の軌跡の時刻を 1..N 上の目盛りの行として示し、ステップコストの和 ΣJ と、DP 経路を重ねたコスト行列 J(s, t) を描きます。下: ステップ数に対する負の ELBO (ビット/次元)。</translation>
    </message>
    <message>
        <source>Less ΣJ is a better trajectory for the same number of steps. The DP path is the cheapest route through the matrix; rows that do not start at 1 or end at N say so, and pay for it in the prior or the decoder term.</source>
        <translation>同じステップ数なら ΣJ が小さいほど良い軌跡です。DP 経路は行列を通る最も安い経路です。1 から始まらない行や N で終わらない行にはその旨が表示され、その分を事前分布の項やデコーダの項で支払います。</translation>
    </message>
    <message>
        <source>Hover a tick to read its timestep and step cost. Choose the leading spacing and see it never reach N. Press Compute NLL vs steps and compare the three variances.</source>
        <translation>目盛りにマウスを重ねると時刻とステップコストが読めます。leading の間隔を選ぶと、決して N に届かないことがわかります。「ステップ数ごとの NLL を計算」を押して 3 つの分散を比べてください。</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>How fast the categorical and the Gaussian process destroy the same data, the 8×8 digits, on one time axis: the fraction of the data&apos;s information left, and the Gaussian SNR ᾱₙ/β̄ₙ.</source>
        <translation>カテゴリカル過程とガウス過程が同じデータ (8×8 の数字画像) をどれだけ速く壊すかを 1 つの時間軸上に示します: データの情報量の残りの割合と、ガウスの SNR ᾱₙ/β̄ₙ。</translation>
    </message>
    <message>
        <source>Both curves start at 1 and fall to 0; a curve that falls early wastes the later steps on noise, one that falls late leaves little time to denoise.</source>
        <translation>どちらの曲線も 1 から始まり 0 まで下がります。早く下がる曲線は後半のステップをノイズに浪費し、遅く下がる曲線はノイズ除去の時間をほとんど残しません。</translation>
    </message>
    <message>
        <source>Switch the Gaussian schedule from linear to cosine and watch its curve move later. Change the categorical schedule and compare.</source>
        <translation>ガウスのスケジュールを linear から cosine に切り替えると、曲線が後ろにずれる様子がわかります。カテゴリカルのスケジュールも変えて比べてください。</translation>
    </message>
    <message>
        <source>Schedule lab</source>
        <translation>スケジュール実験室</translation>
    </message>
    <message>
        <source>Apply the presets: leading spacing without zero SNR, DDPM β̃ with few steps, Karras spacing on a linear-β model, and read what each shows.</source>
        <translation>プリセット (終端 SNR ゼロなしの leading 間隔、少ないステップでの DDPM β̃、linear-β モデルでの Karras 間隔) を適用し、それぞれが何を示すかを読み取ってください。</translation>
    </message>
    <message>
        <source>P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ (from x₀ to xₜ), Pₛ,ₜ (from xₛ to xₜ) and the reverse matrix Q (built from the denoiser&apos;s rows F(· | xₜ = j)) whose row j is q(xₛ | xₜ = j), at the time slider&apos;s step.</source>
        <translation>時刻スライダーのステップでの P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ (x₀ から xₜ へ)、Pₛ,ₜ (xₛ から xₜ へ)、および第 j 行が q(xₛ | xₜ = j) である逆過程の行列 Q (デノイザの行 F(· | xₜ = j) から作られます)。</translation>
    </message>
    <message>
        <source>Decoding (digits)</source>
        <translation>デコーディング (数字)</translation>
    </message>
    <message>
        <source>Masked diffusion decodes an image by starting with every pixel masked and unmasking pixels over N steps: the ancestral sampler, or a fixed number of pixels per step chosen at random or by the denoiser&apos;s confidence, margin or entropy. The 8×8 digits have far more possible images than chains can cover, so the charts show what Monte Carlo measures against N, with ±1 standard error bars: the share of decoded images a classifier recognises as their label, and the mean entropy per pixel, each beside the real training images&apos; own (dashed). The map on the right shows which pixel first: each pixel&apos;s mean commit step for the sampler and N chosen above (dark: early).</source>
        <translation>マスク拡散は、すべての画素をマスクした状態から始め、N ステップで画素のマスクを外して画像をデコードします。祖先サンプラー、またはステップごとに決まった数の画素を、ランダムに、あるいはデノイザの確信度・マージン・エントロピーで選ぶサンプラーです。8×8 の数字は連鎖で覆いきれないほど多くの画像がありうるため、グラフは N に対してモンテカルロで測れるものを ±1 標準誤差のバー付きで示します。デコードされた画像のうち分類器がそのラベルと認識する割合と、画素あたりの平均エントロピーで、それぞれ実際の訓練画像の値 (破線) と並べます。右の地図は、どの画素が先に確定するかを示します: 上で選んだサンプラーと N での各画素の平均確定ステップ (暗いほど早い)。</translation>
    </message>
    <message>
        <source>A sampler that decodes many pixels in one step draws them independently and breaks the strokes: fewer images are recognised. Argmax and confidence orders keep the strokes but give up diversity: the entropy per pixel falls below the training images&apos;. Samplers less than two standard errors apart cannot be told apart with this many chains.</source>
        <translation>1 ステップで多くの画素をデコードするサンプラーはそれらを独立に引くため筆跡が崩れ、認識される画像が減ります。argmax や確信度順は筆跡を保ちますが多様性を失い、画素あたりのエントロピーが訓練画像の値を下回ります。差が 2 標準誤差に満たないサンプラーどうしは、この連鎖数では区別できません。</translation>
    </message>
    <message>
        <source>Compare the ancestral sampler with confidence decoding at small N. Choose a sampler under Sampler animated in Trajectories and play the Trajectories view: the pixels appear in the sampler&apos;s order.</source>
        <translation>小さな N で祖先サンプラーと確信度デコーディングを比べてください。「軌跡で再生するサンプラー」でサンプラーを選んで軌跡ビューを再生すると、画素がサンプラーの順序で現れます。</translation>
    </message>
    <message>
        <source>Trajectories (images)</source>
        <translation>軌跡 (画像)</translation>
    </message>
    <message>
        <source>Each tile is one chain of D positions drawn as an image, moving under the forward process x₀ → x₁ (each position keeps its class with probability (1 − βₜ)/(1 − βₛ), else redraws it from π) or under the reverse sampler x₁ → x₀. In reverse, the tile framed in blue beside each sample is the denoiser&apos;s prediction x̂₀ = E[X₀ | xₜ] for it.</source>
        <translation>各タイルは D 個の位置からなる 1 本の連鎖を画像として描いたもので、順過程 x₀ → x₁ (各位置は確率 (1 − βₜ)/(1 − βₛ) でクラスを保ち、そうでなければ π から引き直します) または逆過程のサンプラー x₁ → x₀ に従って動きます。逆過程では、各サンプルの横の青枠のタイルが、そのサンプルに対するデノイザの予測 x̂₀ = E[X₀ | xₜ] です。</translation>
    </message>
    <message>
        <source>In reverse, the samples turn from noise into images of the chosen condition, and each prediction shows what the denoiser expects its sample to become; forward, the images dissolve into draws from π.</source>
        <translation>逆過程では、サンプルはノイズから選んだ条件の画像へと変わり、各予測はデノイザがそのサンプルの行き着く先と見込むものを示します。順過程では、画像は π からの抽出へと溶けていきます。</translation>
    </message>
    <message>
        <source>Reduce the number of path steps and play the reverse process: with few steps many positions are drawn at once, independently, and the strokes break up. Choose a sampler under Sampler animated in Trajectories (Decoding view) to watch the order in which it fills the pixels.</source>
        <translation>経路のステップ数を減らして逆過程を再生してください。ステップが少ないと多くの位置が一度に独立に引かれ、筆跡が崩れます。デコーディングビューの「軌跡で再生するサンプラー」でサンプラーを選ぶと、画素を埋める順序を見られます。</translation>
    </message>
    <message>
        <source>Particles (images)</source>
        <translation>粒子 (画像)</translation>
    </message>
    <message>
        <source>Images pushed pixel by pixel through the Gaussian forward process xₜ = √ᾱₜ x₀ + √β̄ₜ ε, then back by two reverse samplers (A and B) started from the same noise; each tile is one sample.</source>
        <translation>ガウスの順過程 xₜ = √ᾱₜ x₀ + √β̄ₜ ε で画素ごとに押し流した画像を、同じノイズから始めた 2 つの逆過程サンプラー (A と B) で戻します。各タイルが 1 つのサンプルです。</translation>
    </message>
    <message>
        <source>At the end of the reverse run the tiles should look like the data&apos;s images: speckled or blurred strokes are the samplers&apos; errors. Both panes start from the same noise, so differences are the samplers&apos; alone.</source>
        <translation>逆過程の終わりでは、タイルはデータの画像のように見えるはずです。斑点やぼやけた筆跡はサンプラーの誤差です。両側は同じノイズから始まるので、違いはサンプラーだけによるものです。</translation>
    </message>
    <message>
        <source>Compare DDPM with Analytic-DDPM with 10 steps: the analytic variance gives cleaner digits. Try 5 steps with the even and the DP trajectory.</source>
        <translation>10 ステップで DDPM と Analytic-DDPM を比べてください。解析的な分散ではよりきれいな数字になります。等間隔と DP の軌跡で 5 ステップも試してください。</translation>
    </message>
    <message>
        <source>Several configurations (schedule, trajectory family, reverse variance, sampler) side by side: their timesteps, their per-step costs, the negative ELBO in bits/dim and the sample quality against the number of steps, with the DP optimum as the reference. The fifth chart shows each step in log σ (σ = √(β̄/ᾱ), step k = log σ at t_k minus log σ at t_(k−1)) against the step index, or the ratio of consecutive steps.</source>
        <translation>複数の設定 (スケジュール、軌跡の系列、逆過程の分散、サンプラー) を並べて、その時刻、ステップごとのコスト、ステップ数に対する負の ELBO (ビット/次元) とサンプルの品質を、DP 最適を基準として示します。5 つ目のグラフは、各ステップの log σ での幅 (σ = √(β̄/ᾱ)、ステップ k = t_k での log σ から t_(k−1) での log σ を引いた値) をステップ番号に対して、または連続するステップの比を示します。</translation>
    </message>
    <message>
        <source>Lower is better for both the NLL and the sample distance (MMD² for 2-D data, the Fréchet distance for the digits). A configuration far above the reference with few steps is a choice that costs steps. DPM-Solver and the Euler samplers step in log σ; a second-order multistep solver such as DPM-Solver++(2M) extrapolates from the previous step and loses accuracy where the ratio of consecutive steps is far from 1 (a jump in step size).</source>
        <translation>NLL もサンプルの距離 (2 次元データでは MMD²、数字画像ではフレシェ距離) も小さいほど良い値です。ステップが少ないときに基準を大きく上回る設定は、ステップを無駄にする選択です。DPM-Solver やオイラー法のサンプラーは log σ で刻みます。DPM-Solver++(2M) のような 2 次の多段法は前のステップから外挿するため、連続するステップの比が 1 から大きく離れるところ (ステップ幅の跳び) で精度を失います。</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>復号</translation>
    </message>
    <message>
        <source>Masked diffusion decodes a sequence by starting with every position masked and unmasking positions over N steps. The ancestral sampler unmasks each masked position independently with the schedule&apos;s probability and draws its value from the denoiser&apos;s marginal given what is already decoded; the ordered samplers unmask a fixed number of positions per step (one per step when N = D with a linear schedule), choosing them at random or by the denoiser&apos;s confidence (the largest probability), margin (the gap between the top two) or entropy (the lowest first). The charts show the exact output distribution (Monte Carlo for large D) against N: its entropy with the data&apos;s as a dashed line, KL(data ‖ output) (how much of the data the sampler misses), KL(output ‖ data) (how much it makes up) and the total variation. A triangle above the plot marks an infinite KL: one distribution gives probability 0 to a sequence the other has. The raster on the right shows which token when: the probability that each position is unmasked after each step, for the sampler and N chosen above.</source>
        <translation>マスク拡散は、すべての位置をマスクした状態から始め、N ステップで位置のマスクを外して系列を復号します。祖先サンプラーはマスクされた各位置をスケジュールの確率で独立にマスク解除し、その値を、すでに復号された部分を条件とするデノイザーの周辺分布から引きます。順序付きサンプラーは 1 ステップに決まった数の位置のマスクを外し (linear スケジュールで N = D なら 1 ステップに 1 つ)、その位置をランダムに、またはデノイザーの確信度 (最大の確率)、マージン (上位 2 つの差)、エントロピー (低いものから) で選びます。グラフは N に対する厳密な出力分布 (D が大きいときはモンテカルロ) を示します: そのエントロピー (データのものを破線で)、KL(データ ‖ 出力) (サンプラーがデータのどれだけを取りこぼすか)、KL(出力 ‖ データ) (どれだけを作り出すか)、全変動距離です。グラフの上の三角は無限大の KL を示します: 一方の分布が、他方にある系列に確率 0 を与えています。右のラスターは、どのトークンがいつ確定するかを示します: 上で選んだサンプラーと N について、各ステップの後に各位置がマスクを外れている確率です。</translation>
    </message>
    <message>
        <source>Positions unmasked in the same step are drawn independently from their own marginals, so their correlation is lost: at N = 1 the output is the product of the marginals and KL(data ‖ output) is the total correlation (for two positions, the mutual information). More steps decode fewer positions together; with one position per step a sampler that draws the values reproduces the data exactly, whatever its order. Argmax and a low temperature give up diversity: with one position per step argmax returns one sequence (entropy 0, an infinite KL(data ‖ output)). The float32 Gumbel draws, as torch computes them, cap the noise at about 16.6 (u never exceeds 1 − 2⁻²⁴), so a value whose log-weight lies about 19 below the best one&apos;s is never drawn.</source>
        <translation>同じステップでマスクを外す位置はそれぞれの周辺分布から独立に引かれるため、その相関は失われます: N = 1 では出力は周辺分布の積で、KL(データ ‖ 出力) は全相関 (2 つの位置なら相互情報量) です。ステップを増やすと同時に復号する位置が減り、1 ステップに 1 つの位置なら、値をサンプルするサンプラーは順序によらずデータを厳密に再現します。argmax や低い温度は多様性を手放します: 1 ステップに 1 つの位置でも argmax は 1 つの系列しか返しません (エントロピー 0、KL(データ ‖ 出力) は無限大)。PyTorch が 32 ビット浮動小数点で計算するガンベル乱数はノイズの上限が約 16.6 (u は 1 − 2⁻²⁴ を超えない) なので、対数重みが最良の値より約 19 以上低い値は決して引かれません。</translation>
    </message>
    <message>
        <source>Start from N = 1 and read KL(data ‖ output) off the chart: it is the correlation the decoder cannot see. Compare confidence with sampled values against confidence with argmax: both order the positions alike, but argmax collapses the entropy. Add a sampler with values=temperature:0.1;gumbel=float32 and compare it with gumbel=float64. Choose a sampler under Sampler animated in Trajectories and play the Trajectories view: the pixels appear in the sampler&apos;s order.</source>
        <translation>N = 1 から始めて、グラフから KL(データ ‖ 出力) を読んでください: 復号器が見ることのできない相関です。値をサンプルする確信度順と argmax の確信度順を比べてください: 位置の順序は同じでも、argmax ではエントロピーが潰れます。values=temperature:0.1;gumbel=float32 のサンプラーを追加し、gumbel=float64 と比べてください。「軌跡で再生するサンプラー」でサンプラーを選び、「軌跡」ビューを再生すると、画素がそのサンプラーの順序で現れます。</translation>
    </message>
    <message>
        <source>Decoding (text from a Markov chain)</source>
        <translation>復号 (マルコフ連鎖のテキスト)</translation>
    </message>
    <message>
        <source>Masked diffusion decodes a sequence of letters by starting with every position masked and unmasking positions over N steps. The letters come from a Markov chain, so the denoiser is exact for any mask pattern and every decoded sequence has a true likelihood: what the charts show is the sampler's own error, not a network's. Cross-entropy is −log p_chain(x) per letter (dashed: the chain's own entropy); pair TV compares the decoded adjacent letters with the chain's; the longest run counts one letter repeated. Below, the first decoded sequences, each letter on the colour of the step that unmasked it; on the right, which position when.</source>
        <translation>マスク拡散は、すべての位置をマスクした状態から始め、N ステップで位置のマスクを外して文字の系列を復号します。文字はマルコフ連鎖から来るので、デノイザはどのマスクの型に対しても厳密で、復号された系列にはどれも真の尤度があります: グラフが示すのはネットワークではなくサンプラー自身の誤差です。クロスエントロピーは 1 文字あたりの −log p_chain(x) (破線: 連鎖自身のエントロピー)、ペアの TV は復号された隣り合う文字の組を連鎖のものと比べ、最長の連続は同じ文字の繰り返しを数えます。下は最初に復号された系列で、各文字はそのマスクを外したステップの色の上にあります。右はどの位置がいつ確定するかです。</translation>
    </message>
    <message>
        <source>A cross-entropy below the dashed line is not a better sampler: the text is more likely than the chain's own text because it repeats its likeliest words, and its pair TV rises. One letter per step in random order reproduces the chain: its cross-entropy meets the dashed line and its pair TV is as small as M sequences allow. Samplers less than two standard errors apart cannot be told apart.</source>
        <translation>破線より低いクロスエントロピーは、より良いサンプラーの印ではありません: 最も出やすい単語を繰り返すので、そのテキストは連鎖自身のテキストより確からしくなり、ペアの TV は上がります。ランダム順で 1 ステップに 1 文字なら連鎖が再現されます: クロスエントロピーは破線に達し、ペアの TV は M 個の系列で可能な限り小さくなります。標準誤差 2 つ分より近いサンプラーどうしは区別できません。</translation>
    </message>
    <message>
        <source>Choose llada:low_confidence at the largest N and read its text, then random order's. Drag Text after step to watch which letters come first.</source>
        <translation>最大の N で llada:low_confidence を選んでそのテキストを読み、次にランダム順のものを読んでください。「ステップ後のテキスト」を動かすと、どの文字が先に現れるかが見えます。</translation>
    </message>
</context>
<context>
    <name>ui::animation</name>
    <message>
        <source>%1: encoding the PNG frame failed</source>
        <translation>%1: PNG フレームのエンコードに失敗しました</translation>
    </message>
    <message>
        <source>the animation has no frames yet</source>
        <translation>アニメーションにまだフレームがありません</translation>
    </message>
    <message>
        <source>animation size %1x%2: must lie between 16 and 4096 pixels</source>
        <translation>アニメーションの大きさ %1x%2: 16 から 4096 ピクセルの間でなければなりません</translation>
    </message>
    <message>
        <source>frames per step %1: must lie in 1..30</source>
        <translation>ステップあたりのフレーム数 %1: 1..30 でなければなりません</translation>
    </message>
    <message>
        <source>frame rate %1: must lie in 1..50 frames per second</source>
        <translation>フレームレート %1: 毎秒 1..50 フレームでなければなりません</translation>
    </message>
    <message>
        <source>hold on the last frame %1 ms: must lie in 0..20000</source>
        <translation>最後のフレームの保持 %1 ms: 0..20000 でなければなりません</translation>
    </message>
    <message>
        <source>%1 frames: at most %2 (fewer frames per step or a shorter hold)</source>
        <translation>%1 フレーム: 最大 %2 です (ステップあたりのフレーム数を減らすか、保持を短くしてください)</translation>
    </message>
    <message>
        <source>%1: an animated GIF is written as .gif</source>
        <translation>%1: アニメーション GIF は .gif として書き出します</translation>
    </message>
    <message>
        <source>%1: a frame sequence needs a name before .png</source>
        <translation>%1: フレームの連番には .png の前に名前が必要です</translation>
    </message>
    <message>
        <source>%1 frames of %2x%3 pixels: the GIF writer holds %1·%2·%3·1 bytes = %4, over the 1 GiB an animation may hold (smaller or fewer frames)</source>
        <translation>%2x%3 ピクセルの %1 フレーム: GIF の書き出しは %1·%2·%3·1 バイト = %4 を保持し、アニメーションに使える 1 GiB を超えます (フレームを小さくするか減らしてください)</translation>
    </message>
</context>
<context>
    <name>ui::animation::AnimationDialog</name>
    <message>
        <source>Export animation: %1</source>
        <translation>アニメーションを書き出し: %1</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source> frames/s</source>
        <translation> フレーム/秒</translation>
    </message>
    <message>
        <source>Frames drawn per step of the trajectory: the chains glide between steps; more frames make a smoother, longer film.</source>
        <translation>軌跡の 1 ステップあたりに描くフレーム数: 連鎖はステップの間を滑らかに動きます。フレームを増やすと、より滑らかで長い動画になります。</translation>
    </message>
    <message>
        <source>This view&apos;s frames are the sampler&apos;s steps: one frame each.</source>
        <translation>このビューのフレームはサンプラーのステップです: 各ステップ 1 フレームです。</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>How long the last frame stays before the animation starts again, so an audience can read the end.</source>
        <translation>アニメーションが最初に戻る前に、最後のフレームを表示し続ける時間です。見ている人が最後を読み取れます。</translation>
    </message>
    <message>
        <source>Animated GIF</source>
        <translation>アニメーション GIF</translation>
    </message>
    <message>
        <source>PNG frame sequence (for video tools)</source>
        <translation>PNG の連番フレーム (動画ツール用)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大きさ</translation>
    </message>
    <message>
        <source>Frame rate</source>
        <translation>フレームレート</translation>
    </message>
    <message>
        <source>Frames per step</source>
        <translation>ステップあたりのフレーム数</translation>
    </message>
    <message>
        <source>Hold the last frame</source>
        <translation>最後のフレームの保持</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>長さ</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>ファイルを選択…</translation>
    </message>
    <message>
        <source>%1 frames · %2 s (the last frame held %3 s)</source>
        <translation>%1 フレーム · %2 秒 (最後のフレームを %3 秒保持)</translation>
    </message>
</context>
<context>
    <name>ui::animation::ChainCanvas</name>
    <message>
        <source>Forward: data → π</source>
        <translation>順過程: データ → π</translation>
    </message>
    <message>
        <source>Reverse: π → data</source>
        <translation>逆過程: π → データ</translation>
    </message>
    <message>
        <source>   each sample xₜ | the denoiser&apos;s x̂₀ = E[X₀|xₜ]</source>
        <translation>   各サンプル xₜ | デノイザの x̂₀ = E[X₀|xₜ]</translation>
    </message>
    <message>
        <source>   sky blue: masked</source>
        <translation>   水色: マスク</translation>
    </message>
    <message>
        <source>Sampling chains…</source>
        <translation>連鎖をサンプリングしています…</translation>
    </message>
    <message>
        <source>%1   t = %2   (step %3 of %4)</source>
        <translation>%1   t = %2   (ステップ %3 / %4)</translation>
    </message>
    <message>
        <source>%1   t = %2</source>
        <translation>%1   t = %2</translation>
    </message>
    <message>
        <source>exact marginal</source>
        <translation>厳密な周辺分布</translation>
    </message>
    <message>
        <source>chains</source>
        <translation>連鎖</translation>
    </message>
    <message>
        <source>, colour: the step that committed it (dark: early)</source>
        <translation>、色: 確定させたステップ (暗いほど早い)</translation>
    </message>
</context>
<context>
    <name>ui::animation::ChainsView</name>
    <message>
        <source>Each dot is one chain; its colour is the class it starts from (forward) or ends in (reverse). Red outlines: the exact marginal; blue bars: the chains.</source>
        <translation>各点が 1 本の連鎖です。色は出発したクラス (順過程) または到達したクラス (逆過程) を表します。赤枠: 厳密な周辺分布、青い棒: 連鎖の分布。</translation>
    </message>
    <message>
        <source>Colour by commit step</source>
        <translation>確定したステップで色分け</translation>
    </message>
    <message>
        <source>Colour each decoded position by the step that committed it (dark: early) instead of by its value: which token when, chain by chain.</source>
        <translation>復号された各位置を、値ではなくそれを確定させたステップで色分けします (暗いほど早い): 連鎖ごとに、どのトークンがいつ確定したか。</translation>
    </message>
</context>
<context>
    <name>ui::animation::TimeBar</name>
    <message>
        <source>Play / pause (Space)</source>
        <translation>再生 / 一時停止 (Space)</translation>
    </message>
    <message>
        <source>One step back (Left)</source>
        <translation>1 ステップ戻る (←)</translation>
    </message>
    <message>
        <source>One step forward (Right)</source>
        <translation>1 ステップ進む (→)</translation>
    </message>
    <message>
        <source>Scrub through the recorded steps</source>
        <translation>記録したステップを前後に移動</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>再生速度</translation>
    </message>
    <message>
        <source>Reverse: π → data</source>
        <translation>逆過程: π → データ</translation>
    </message>
    <message>
        <source>Forward: data → π</source>
        <translation>順過程: データ → π</translation>
    </message>
    <message>
        <source>Which process the Trajectories view plays</source>
        <translation>軌跡ビューで再生する過程</translation>
    </message>
    <message>
        <source>Random seed of the samplers (results are identical for a given seed)</source>
        <translation>サンプラーの乱数シード (同じシードなら結果は同一)</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation>ステップ %1 / %2</translation>
    </message>
</context>
<context>
    <name>ui::chart_export</name>
    <message>
        <source>length %1: expected a number with px, cm, mm or in</source>
        <translation>長さ %1: px、cm、mm、in のいずれかを付けた数値を指定してください</translation>
    </message>
    <message>
        <source>length %1: must lie between 16 and 16384 pixels (0.43 to 433 cm)</source>
        <translation>長さ %1: 16 から 16384 ピクセル (0.43 から 433 cm) の範囲でなければなりません</translation>
    </message>
    <message>
        <source>nothing to export</source>
        <translation>書き出すものがありません</translation>
    </message>
    <message>
        <source>export size %1x%2: must lie between 16 and 16384 pixels</source>
        <translation>書き出しサイズ %1x%2: 16 から 16384 ピクセルの範囲でなければなりません</translation>
    </message>
    <message>
        <source>export DPI %1: must lie between 24 and 1200</source>
        <translation>書き出しの DPI %1: 24 から 1200 の範囲でなければなりません</translation>
    </message>
    <message>
        <source>export font scale %1: must lie between 0.5 and 4</source>
        <translation>書き出しの文字の倍率 %1: 0.5 から 4 の範囲でなければなりません</translation>
    </message>
    <message>
        <source>%1: encoding the PNG failed</source>
        <translation>%1: PNG のエンコードに失敗しました</translation>
    </message>
    <message>
        <source>no frames to write</source>
        <translation>書き込むフレームがありません</translation>
    </message>
    <message>
        <source>GIF encoder: %1</source>
        <translation>GIF エンコーダ: %1</translation>
    </message>
    <message>
        <source>make it larger or the font scale smaller</source>
        <translation>大きくするかフォント倍率を小さくしてください</translation>
    </message>
    <message>
        <source>%1: at %2 × %3 cm and font scale %4 the figure cannot show %5 whole; %6</source>
        <translation>%1: %2 × %3 cm、フォント倍率 %4 では図に %5 を省略せずに表示できません。%6</translation>
    </message>
    <message>
        <source>%1: at %2 × %3 cm and font scale %4 the %5 view does not fit; %6</source>
        <translation>%1: %2 × %3 cm、フォント倍率 %4 では %5 ビューが収まりません。%6</translation>
    </message>
    <message>
        <source>length %1: must be positive (16 to 16384 pixels, 0.43 to 433 cm)</source>
        <translation>長さ %1: 正の値でなければなりません（16〜16384 ピクセル、0.43〜433 cm）</translation>
    </message>
    <message>
        <source>%1: a figure is written as .png, .svg or .pdf</source>
        <translation>%1: 図は .png、.svg または .pdf として書き出します</translation>
    </message>
    <message>
        <source>%1: cannot create the folder</source>
        <translation>%1: フォルダーを作成できません</translation>
    </message>
    <message>
        <source> (at this font scale it fits at %1 × %2 cm)</source>
        <translation>（このフォント倍率では %1 × %2 cm で収まります）</translation>
    </message>
    <message>
        <source>make it larger</source>
        <translation>大きくしてください</translation>
    </message>
</context>
<context>
    <name>ui::charts::FigureChart</name>
    <message>
        <source>the tick labels of &quot;%1&quot;</source>
        <translation>「%1」の目盛りラベル</translation>
    </message>
    <message>
        <source>What this view shows</source>
        <translation>このビューが示すもの</translation>
    </message>
    <message>
        <source>Drag a rectangle to zoom in, Ctrl+wheel to zoom about the cursor, Shift+drag to pan; double-click to see everything again.</source>
        <translation>矩形をドラッグして拡大、Ctrl+ホイールでカーソルの位置を中心に拡大縮小、Shift+ドラッグで移動、ダブルクリックで全体表示に戻ります。</translation>
    </message>
    <message>
        <source>the legend of %1</source>
        <translation>%1 の凡例</translation>
    </message>
    <message>
        <source>the plot of %1</source>
        <translation>%1 のプロット</translation>
    </message>
</context>
<context>
    <name>ui::charts::ViewPanel</name>
    <message>
        <source>Out of date: these are the results of the previous settings; the new ones are being computed.</source>
        <translation>古い結果です: 変更前の設定の結果を表示しています。新しい結果を計算中です。</translation>
    </message>
    <message>
        <source>Out of date: these are the results of the previous settings; the new ones were cancelled.</source>
        <translation>古い結果です: 変更前の設定の結果を表示しています。新しい結果の計算はキャンセルされました。</translation>
    </message>
</context>
<context>
    <name>ui::decodingDefaults</name>
    <message>
        <source>ancestral</source>
        <translation>祖先サンプリング</translation>
    </message>
    <message>
        <source>confidence</source>
        <translation>確信度順</translation>
    </message>
    <message>
        <source>confidence, argmax</source>
        <translation>確信度順、argmax</translation>
    </message>
    <message>
        <source>margin</source>
        <translation>マージン順</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>エントロピー順</translation>
    </message>
    <message>
        <source>random</source>
        <translation>ランダム順</translation>
    </message>
</context>
<context>
    <name>ui::document::examples</name>
    <message>
        <source>Categorical: a two-condition table (K = 4 classes)</source>
        <translation>カテゴリカル: 2 条件の表 (K = 4 クラス)</translation>
    </message>
    <message>
        <source>Categorical: 8×8 digits (L = 4) with the trained network</source>
        <translation>カテゴリカル: 8×8 の数字画像 (L = 4)、学習済みネットワーク付き</translation>
    </message>
    <message>
        <source>Gaussian: two moons with the trained network</source>
        <translation>ガウス: 2 つの三日月形のデータ、学習済みネットワーク付き</translation>
    </message>
    <message>
        <source>Gaussian: 8×8 digits with the trained network</source>
        <translation>ガウス: 8×8 の数字画像、学習済みネットワーク付き</translation>
    </message>
    <message>
        <source>Gaussian: 8×8 digits with a convolutional U-Net (PyTorch)</source>
        <translation>ガウス: 8×8 の数字画像、畳み込み U-Net (PyTorch) 付き</translation>
    </message>
    <message>
        <source>Masked diffusion: 8×8 digits, which pixel first? (trained network)</source>
        <translation>マスク拡散: 8×8 の数字画像、どの画素から? (学習済みネットワーク)</translation>
    </message>
    <message>
        <source>Masked diffusion on text: which letter first?</source>
        <translation>テキストのマスク拡散: どの文字から?</translation>
    </message>
</context>
<context>
    <name>ui::export_dialog</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 画像 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 図 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文書 (*.pdf)</translation>
    </message>
    <message>
        <source>Data as CSV (*.csv)</source>
        <translation>データ (CSV) (*.csv)</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>ビューを書き出し</translation>
    </message>
    <message>
        <source>Export options</source>
        <translation>書き出しの設定</translation>
    </message>
    <message>
        <source>96 is the screen; 192 or 300 for print (PNG only: SVG and PDF are vectors).</source>
        <translation>96 は画面用、印刷には 192 または 300 (PNG のみ。SVG と PDF はベクター形式)。</translation>
    </message>
    <message>
        <source>Text and lines this many times larger than on screen, at the same figure size: 1.5–2 for slides and two-column papers.</source>
        <translation>同じ図のサイズのまま、文字と線を画面表示の何倍にするか。スライドや 2 段組の論文には 1.5–2。</translation>
    </message>
    <message>
        <source>size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>resolution (DPI)</source>
        <translation>解像度 (DPI)</translation>
    </message>
    <message>
        <source>font scale</source>
        <translation>文字の倍率</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>The figure&apos;s size on paper; text keeps its size in points, so a smaller figure has relatively larger text (8.5 cm: a paper column).</source>
        <translation>紙の上での図の大きさです。文字はポイント単位の大きさを保つので、図が小さいほど文字は相対的に大きくなります (8.5 cm: 論文の 1 段)。</translation>
    </message>
</context>
<context>
    <name>ui::jobs</name>
    <message>
        <source>Reading the data and model</source>
        <translation>データとモデルの読み込み</translation>
    </message>
    <message>
        <source>Kernel comparison</source>
        <translation>カーネルの比較</translation>
    </message>
    <message>
        <source>Step costs and DP</source>
        <translation>ステップコストと DP</translation>
    </message>
    <message>
        <source>Sampling chains</source>
        <translation>連鎖のサンプリング</translation>
    </message>
    <message>
        <source>Particles</source>
        <translation>粒子</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>実験室</translation>
    </message>
    <message>
        <source>NLL vs K</source>
        <translation>K に対する NLL</translation>
    </message>
    <message>
        <source>Γ and variances</source>
        <translation>Γ と分散</translation>
    </message>
    <message>
        <source>training</source>
        <translation>学習</translation>
    </message>
    <message>
        <source>Compare curves</source>
        <translation>比較の曲線</translation>
    </message>
    <message>
        <source>DP paths</source>
        <translation>DP 経路</translation>
    </message>
    <message>
        <source>negative ELBO</source>
        <translation>負の ELBO</translation>
    </message>
    <message>
        <source>Decoding samplers</source>
        <translation>復号サンプラー</translation>
    </message>
    <message>
        <source>Decoding chains</source>
        <translation>復号チェーン</translation>
    </message>
</context>
<context>
    <name>ui::labPresets</name>
    <message>
        <source>Leading spacing without zero SNR</source>
        <translation>終端 SNR ゼロなしの leading 間隔</translation>
    </message>
    <message>
        <source>Leading spacing stops short of the last timestep, so sampling starts from pure noise at a step where the data still leave a trace, and the NLL&apos;s prior term says what that costs; trailing spacing reaches the last step but then leaves its first steps out, so its decoder reads a noisier x, and zero terminal SNR makes the start exact.</source>
        <translation>leading 間隔は最後の時刻の手前で止まるため、データの痕跡がまだ残っている時刻から純粋なノイズでサンプリングを始めることになり、その代償は NLL の事前分布の項に表れます。trailing 間隔は最後の時刻に届きますが、最初のステップを省くためデコーダはよりノイズの多い x を読むことになります。終端 SNR をゼロにすると開始点が厳密になります。</translation>
    </message>
    <message>
        <source>DDPM&apos;s β̃ with few steps</source>
        <translation>少ないステップでの DDPM の β̃</translation>
    </message>
    <message>
        <source>With few steps the DDPM reverse variance β̃ is far too small and the likelihood bound explodes; β is much better and the analytic variance, fitted to the model, better still. The gap closes as the number of steps grows.</source>
        <translation>ステップ数が少ないと DDPM の逆過程分散 β̃ は小さすぎ、尤度の上界が爆発します。β のほうがずっと良く、モデルに合わせた解析的な分散はさらに良くなります。ステップ数が増えるにつれて差は縮まります。</translation>
    </message>
    <message>
        <source>Karras spacing on a linear-β model</source>
        <translation>linear-β モデルでの Karras 間隔</translation>
    </message>
    <message>
        <source>Karras spacing places the steps evenly in σ to the power 1/ρ, a rule made for models whose noise level spans a huge range; here it runs on a linear-β schedule, next to uniform log-SNR, even spacing and the DP optimum, to see where it puts its steps and what they cost.</source>
        <translation>Karras 間隔は σ の 1/ρ 乗について等間隔にステップを置きます。ノイズの大きさが非常に広い範囲にわたるモデルのための規則です。ここでは linear-β スケジュール上で、対数 SNR 一様、等間隔、DP 最適と並べて実行し、どこにステップを置き、そのコストがどれだけかを見ます。</translation>
    </message>
</context>
<context>
    <name>ui::lessons::LessonPane</name>
    <message>
        <source>Lesson</source>
        <translation>レッスン</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 前へ</translation>
    </message>
    <message>
        <source>Start again</source>
        <translation>やり直す</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>次へ ▶</translation>
    </message>
    <message>
        <source>Choose a lesson: its first step loads.</source>
        <translation>レッスンを選んでください: 最初のステップが読み込まれます。</translation>
    </message>
    <message>
        <source>The previous step (Alt+Left).</source>
        <translation>前のステップ (Alt+←)。</translation>
    </message>
    <message>
        <source>The next step (Alt+Right).</source>
        <translation>次のステップ (Alt+→)。</translation>
    </message>
    <message>
        <source>Load this step&apos;s project again, undoing what you changed.</source>
        <translation>このステップのプロジェクトを読み込み直し、変更を元に戻します。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s): press Begin to start.</source>
        <translation>
            <numerusform>%n ステップ: 「始める」を押してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>ステップ %1 / %2</translation>
    </message>
    <message>
        <source>Step %1 of %2 — left: another project is open; Start again loads the step.</source>
        <translation>ステップ %1 / %2 — 中断中: 別のプロジェクトが開いています。「やり直す」でこのステップを読み込みます。</translation>
    </message>
    <message>
        <source>Try this.</source>
        <translation>試してみよう。</translation>
    </message>
    <message>
        <source>The mathematics behind this lesson</source>
        <translation>このレッスンの数学的背景</translation>
    </message>
    <message>
        <source>Begin ▶</source>
        <translation>始める ▶</translation>
    </message>
    <message>
        <source>Next lesson ▶</source>
        <translation>次のレッスン ▶</translation>
    </message>
</context>
<context>
    <name>ui::panels::CategoricalPanel</name>
    <message>
        <source>Classes and prior π</source>
        <translation>クラスと事前分布 π</translation>
    </message>
    <message>
        <source>K, the number of classes (2..256).</source>
        <translation>K: クラス数 (2..256)。</translation>
    </message>
    <message>
        <source>π as a comma list; it must be non-negative and sum to 1.</source>
        <translation>π をカンマ区切りで入力します。非負で合計が 1 でなければなりません。</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>プリセット</translation>
    </message>
    <message>
        <source>Change K</source>
        <translation>K の変更</translation>
    </message>
    <message>
        <source>Drag π</source>
        <translation>π のドラッグ</translation>
    </message>
    <message>
        <source>Uniform</source>
        <translation>一様</translation>
    </message>
    <message>
        <source>π uniform</source>
        <translation>π を一様に</translation>
    </message>
    <message>
        <source>Absorbing (mask = last class)</source>
        <translation>吸収 (マスク = 最後のクラス)</translation>
    </message>
    <message>
        <source>π absorbing</source>
        <translation>π を吸収型に</translation>
    </message>
    <message>
        <source>Masked (a mask state of its own)</source>
        <translation>マスク (専用のマスク状態)</translation>
    </message>
    <message>
        <source>π masked</source>
        <translation>π をマスク型に</translation>
    </message>
    <message>
        <source>Data marginal</source>
        <translation>データの周辺分布</translation>
    </message>
    <message>
        <source>π = data marginal</source>
        <translation>π = データの周辺分布</translation>
    </message>
    <message>
        <source>Schedule β(t)</source>
        <translation>スケジュール β(t)</translation>
    </message>
    <message>
        <source>The noise schedule; information-linear makes I(X₀;Xₜ) fall linearly in t for the current data.</source>
        <translation>ノイズスケジュール。information-linear は現在のデータで I(X₀;Xₜ) が t に対して線形に減少するようにします。</translation>
    </message>
    <message>
        <source>The exponent p of β(t) = tᵖ.</source>
        <translation>β(t) = tᵖ の指数 p。</translation>
    </message>
    <message>
        <source>N, the number of grid steps t = 0, 1/N, …, 1.</source>
        <translation>N: 格子 t = 0, 1/N, …, 1 のステップ数。</translation>
    </message>
    <message>
        <source>steps N</source>
        <translation>ステップ数 N</translation>
    </message>
    <message>
        <source>Change schedule</source>
        <translation>スケジュールの変更</translation>
    </message>
    <message>
        <source>Change exponent</source>
        <translation>指数の変更</translation>
    </message>
    <message>
        <source>Drag control point</source>
        <translation>制御点のドラッグ</translation>
    </message>
    <message>
        <source>Change N</source>
        <translation>N の変更</translation>
    </message>
    <message>
        <source>Data P(X₀ | C)</source>
        <translation>データ P(X₀ | C)</translation>
    </message>
    <message>
        <source>The data: a small table, the bundled handwritten digits (64 positions, conditioned on the label), or a CSV table file with columns x1..xD, p and optionally c.</source>
        <translation>データ: 小さな表、同梱の手書き数字 (64 位置、ラベルで条件付け)、または列 x1..xD、p と任意で c を持つ CSV の表ファイル。</translation>
    </message>
    <message>
        <source>Grey levels of the digits: the number of classes K.</source>
        <translation>数字画像の階調数: クラス数 K。</translation>
    </message>
    <message>
        <source>With several positions (pixels), the matrices and the kernel comparison show this one.</source>
        <translation>位置 (画素) が複数あるとき、行列とカーネルの比較にはこの位置を表示します。</translation>
    </message>
    <message>
        <source>Rows are classes (numbered from 0), columns are conditions; each column sums to 1.</source>
        <translation>行がクラス (0 から番号付け)、列が条件です。各列の合計は 1 です。</translation>
    </message>
    <message>
        <source>Add condition</source>
        <translation>条件を追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Normalise</source>
        <translation>正規化</translation>
    </message>
    <message>
        <source>Scale each column so it sums to 1.</source>
        <translation>各列の合計が 1 になるように拡大縮小します。</translation>
    </message>
    <message>
        <source>The condition C whose data the views show and the chains sample.</source>
        <translation>ビューが表示し、連鎖がサンプリングするデータの条件 C。</translation>
    </message>
    <message>
        <source>condition C</source>
        <translation>条件 C</translation>
    </message>
    <message>
        <source>Remove condition</source>
        <translation>条件の削除</translation>
    </message>
    <message>
        <source>the data needs at least one condition</source>
        <translation>データには少なくとも 1 つの条件が必要です</translation>
    </message>
    <message>
        <source>Normalise data</source>
        <translation>データの正規化</translation>
    </message>
    <message>
        <source>Change levels</source>
        <translation>階調数の変更</translation>
    </message>
    <message>
        <source>Change position</source>
        <translation>位置の変更</translation>
    </message>
    <message>
        <source>Change condition</source>
        <translation>条件の変更</translation>
    </message>
    <message>
        <source>Use the digits</source>
        <translation>数字画像を使う</translation>
    </message>
    <message>
        <source>Open a table file</source>
        <translation>表ファイルを開く</translation>
    </message>
    <message>
        <source>Use the table</source>
        <translation>表を使う</translation>
    </message>
    <message>
        <source>Reverse process</source>
        <translation>逆過程</translation>
    </message>
    <message>
        <source>exact oracle</source>
        <translation>厳密なオラクル</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>開く…</translation>
    </message>
    <message>
        <source>Load a categorical checkpoint trained for these classes (K), positions (D) and conditions.</source>
        <translation>このクラス数 (K)、位置の数 (D)、条件で学習したカテゴリカルのチェックポイントを読み込みます。</translation>
    </message>
    <message>
        <source>Train…</source>
        <translation>学習…</translation>
    </message>
    <message>
        <source>Train a network on this data and schedule, then use it.</source>
        <translation>このデータとスケジュールでネットワークを学習し、それを使います。</translation>
    </message>
    <message>
        <source>Which grid nodes the reverse chain visits.</source>
        <translation>逆過程の連鎖が通る格子ノード。</translation>
    </message>
    <message>
        <source>The number of denoising steps.</source>
        <translation>ノイズ除去のステップ数。</translation>
    </message>
    <message>
        <source>Grid nodes from 0 to N, strictly increasing.</source>
        <translation>0 から N までの格子ノード (狭義単調増加)。</translation>
    </message>
    <message>
        <source>closed form (source)</source>
        <translation>閉形式 (元の導出)</translation>
    </message>
    <message>
        <source>D3PM-style (comparison)</source>
        <translation>D3PM 型 (比較用)</translation>
    </message>
    <message>
        <source>The closed form reproduces the data exactly; the D3PM-style parameterisation does not for non-absorbing π.</source>
        <translation>閉形式はデータを厳密に再現します。D3PM 型のパラメータ化は、吸収型でない π では再現しません。</translation>
    </message>
    <message>
        <source>Chains drawn in the Trajectories view.</source>
        <translation>軌跡ビューに描く連鎖の数。</translation>
    </message>
    <message>
        <source>path steps</source>
        <translation>経路のステップ数</translation>
    </message>
    <message>
        <source>Use the exact oracle</source>
        <translation>厳密なオラクルを使う</translation>
    </message>
    <message>
        <source>Use a checkpoint</source>
        <translation>チェックポイントを使う</translation>
    </message>
    <message>
        <source>Open a categorical checkpoint</source>
        <translation>カテゴリカルのチェックポイントを開く</translation>
    </message>
    <message>
        <source>Change trajectory</source>
        <translation>軌跡の変更</translation>
    </message>
    <message>
        <source>Change path steps</source>
        <translation>経路のステップ数の変更</translation>
    </message>
    <message>
        <source>Change kernel</source>
        <translation>カーネルの変更</translation>
    </message>
    <message>
        <source>Change chains</source>
        <translation>連鎖の数の変更</translation>
    </message>
    <message>
        <source>pi[%1] = %2: not a number</source>
        <translation>pi[%1] = %2: 数値ではありません</translation>
    </message>
    <message>
        <source>π has %1 entries but K = %2</source>
        <translation>π の要素数は %1 ですが K = %2 です</translation>
    </message>
    <message>
        <source>Σπ = %1 (typed)</source>
        <translation>Σπ = %1 (入力値)</translation>
    </message>
    <message>
        <source>pi = %1: the entries sum to %2, not 1 — &lt;a href=&quot;normalise&quot;&gt;normalise&lt;/a&gt; (divide each by %2)</source>
        <translation>pi = %1: 要素の合計が 1 ではなく %2 です — &lt;a href=&quot;normalise&quot;&gt;正規化&lt;/a&gt; (各要素を %2 で割る)</translation>
    </message>
    <message>
        <source>Edit π</source>
        <translation>π の編集</translation>
    </message>
    <message>
        <source>Normalise π</source>
        <translation>π の正規化</translation>
    </message>
    <message>
        <source>table[%1][%2] = %3: not a number</source>
        <translation>table[%1][%2] = %3: 数値ではありません</translation>
    </message>
    <message>
        <source>Edit data</source>
        <translation>データの編集</translation>
    </message>
    <message>
        <source>trajectoryList[%1] = %2: not a whole number</source>
        <translation>trajectoryList[%1] = %2: 整数ではありません</translation>
    </message>
    <message>
        <source>Edit trajectory</source>
        <translation>軌跡の編集</translation>
    </message>
    <message>
        <source>Use a table file</source>
        <translation>表ファイルを使う</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>%1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>%1 を読み込んでいます</translation>
    </message>
    <message>
        <source>π: all on the mask state, class %1 (the data never use it); the bars are the π kept for later</source>
        <translation>π: すべてマスク状態 (クラス %1、データでは使われない) にあります。棒グラフは後で使うために保持している π です</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>source</source>
        <translation>データ源</translation>
    </message>
    <message>
        <source>levels</source>
        <translation>階調数</translation>
    </message>
    <message>
        <source>file</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>trajectory</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>ノード</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>カーネル</translation>
    </message>
    <message>
        <source>chains</source>
        <translation>連鎖の数</translation>
    </message>
    <message>
        <source>The denoiser F: the exact posterior of the data (what a network that memorises its data would learn), or a trained network (a .safetensors checkpoint or a TorchScript .pt model; you can also drop one on the window).</source>
        <translation>デノイザ F: データの厳密な事後分布 (データを記憶したネットワークが学習するもの)、または学習済みネットワーク (.safetensors のチェックポイントまたは TorchScript の .pt モデル。ウィンドウにドロップしても読み込めます)。</translation>
    </message>
    <message>
        <source>Models (*.safetensors *.pt)</source>
        <translation>モデル (*.safetensors *.pt)</translation>
    </message>
    <message>
        <source>choose the condition to remove</source>
        <translation>削除する条件を選んでください</translation>
    </message>
    <message>
        <source>all, averaged</source>
        <translation>すべて（平均）</translation>
    </message>
</context>
<context>
    <name>ui::panels::GaussianPanel</name>
    <message>
        <source>Process</source>
        <translation>過程</translation>
    </message>
    <message>
        <source>N, the number of timesteps.</source>
        <translation>N: 時刻の数。</translation>
    </message>
    <message>
        <source>DDPM (η = 1)</source>
        <translation>DDPM (η = 1)</translation>
    </message>
    <message>
        <source>DDIM (η = 0)</source>
        <translation>DDIM (η = 0)</translation>
    </message>
    <message>
        <source>The forward process on the trajectory: λ² = η²β̃ (Help ▸ Mathematics: gaussian.md#forward-process).</source>
        <translation>軌跡上の順過程: λ² = η²β̃ (ヘルプ ▸ 数学的背景: gaussian.md#forward-process)。</translation>
    </message>
    <message>
        <source>steps N</source>
        <translation>ステップ数 N</translation>
    </message>
    <message>
        <source>Change schedule</source>
        <translation>スケジュールの変更</translation>
    </message>
    <message>
        <source>A custom β schedule</source>
        <translation>独自の β スケジュール</translation>
    </message>
    <message>
        <source>Change N</source>
        <translation>N の変更</translation>
    </message>
    <message>
        <source>Change forward process</source>
        <translation>順過程の変更</translation>
    </message>
    <message>
        <source>Change η</source>
        <translation>η の変更</translation>
    </message>
    <message>
        <source>Data and model</source>
        <translation>データとモデル</translation>
    </message>
    <message>
        <source>other (type a spec)</source>
        <translation>その他 (指定を入力)</translation>
    </message>
    <message>
        <source>The data; the model is its exact oracle (the score of the noisy data).</source>
        <translation>データ。モデルはその厳密なオラクル (ノイズ付きデータのスコア) です。</translation>
    </message>
    <message>
        <source>A data spec: toy:NAME[,n=,seed=], gaussian:d=D,s=S, gmm:FILE.json, mixture:w,mx,my,s;… (2-D, up to 16 components, weights normalised), csv:FILE or digits[:test] (press Enter).</source>
        <translation>データの指定: toy:NAME[,n=,seed=]、gaussian:d=D,s=S、gmm:FILE.json、mixture:w,mx,my,s;… (2 次元、成分は 16 個まで、重みは正規化)、csv:FILE、digits[:test] のいずれか (Enter で確定)。</translation>
    </message>
    <message>
        <source>exact oracle</source>
        <translation>厳密なオラクル</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>開く…</translation>
    </message>
    <message>
        <source>Load a Gaussian checkpoint trained for this N and data dimension.</source>
        <translation>この N とデータの次元で学習したガウスのチェックポイントを読み込みます。</translation>
    </message>
    <message>
        <source>Train…</source>
        <translation>学習…</translation>
    </message>
    <message>
        <source>Train a network on this data and schedule, then use it.</source>
        <translation>このデータとスケジュールでネットワークを学習し、それを使います。</translation>
    </message>
    <message>
        <source>Use the exact oracle</source>
        <translation>厳密なオラクルを使う</translation>
    </message>
    <message>
        <source>Use a checkpoint</source>
        <translation>チェックポイントを使う</translation>
    </message>
    <message>
        <source>Open a Gaussian checkpoint</source>
        <translation>ガウスのチェックポイントを開く</translation>
    </message>
    <message>
        <source>Γ estimate</source>
        <translation>Γ の推定</translation>
    </message>
    <message>
        <source>M, Monte Carlo samples per timestep (Help ▸ Mathematics: gaussian.md#gamma).</source>
        <translation>M: 時刻ごとのモンテカルロサンプル数 (ヘルプ ▸ 数学的背景: gaussian.md#gamma)。</translation>
    </message>
    <message>
        <source>How Γ&apos;s Monte Carlo terms are formed. Score: ‖ε_θ‖²/d as in the paper, which in low dimension can exceed its bound. Low-variance (the default), for the exact oracle: per timestep the lower-variance of that and 1 − ‖ε_θ − ε‖²/d (both unbiased); for a network: the second (error), which also puts the network&apos;s own error into σ².</source>
        <translation>Γ のモンテカルロ項の作り方。スコア: 論文と同じ ‖ε_θ‖²/d (低次元では上界を超えることがあります)。低分散 (既定): 厳密なオラクルでは時刻ごとにそれと 1 − ‖ε_θ − ε‖²/d (どちらも不偏) のうち分散の小さい方、ネットワークでは後者 (誤差) を使い、ネットワーク自身の誤差も σ² に含めます。</translation>
    </message>
    <message>
        <source>samples M</source>
        <translation>サンプル数 M</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>読み込み…</translation>
    </message>
    <message>
        <source>Use Γ from a file instead of estimating it: CSV with columns n,gamma or n,ms_eps, or an NPY array of ms_eps as the Analytic-DPM code saves it (length N + 1, entry 0 unused, or N).</source>
        <translation>Γ を推定する代わりにファイルから使います: 列 n,gamma または n,ms_eps を持つ CSV、あるいは Analytic-DPM のコードが保存する ms_eps の NPY 配列 (長さ N + 1 で要素 0 は未使用、または長さ N)。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>書き出し…</translation>
    </message>
    <message>
        <source>Write the current Γ as CSV (n,gamma) or NPY (ms_eps, length N + 1).</source>
        <translation>現在の Γ を CSV (n,gamma) または NPY (ms_eps、長さ N + 1) で書き出します。</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>推定</translation>
    </message>
    <message>
        <source>Drop the imported Γ and estimate it with M samples.</source>
        <translation>読み込んだ Γ を破棄し、M サンプルで推定します。</translation>
    </message>
    <message>
        <source>Use the segmented DP</source>
        <translation>分割 DP を使う</translation>
    </message>
    <message>
        <source>Import Γ</source>
        <translation>Γ の読み込み</translation>
    </message>
    <message>
        <source>Estimate Γ</source>
        <translation>Γ の推定</translation>
    </message>
    <message>
        <source>Change M</source>
        <translation>M の変更</translation>
    </message>
    <message>
        <source>Change Γ estimator</source>
        <translation>Γ の推定法の変更</translation>
    </message>
    <message>
        <source>Change seed</source>
        <translation>シードの変更</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>軌跡 (ステップ選択)</translation>
    </message>
    <message>
        <source>Which timesteps the reverse process visits (Help ▸ Mathematics: gaussian.md#trajectories).</source>
        <translation>逆過程が通る時刻 (ヘルプ ▸ 数学的背景: gaussian.md#trajectories)。</translation>
    </message>
    <message>
        <source>The timesteps, strictly increasing from 1 to at most N, e.g. 1,10,50,200,1000 (press Enter).</source>
        <translation>1 から N 以下までの狭義単調増加な時刻。例: 1,10,50,200,1000 (Enter で確定)。</translation>
    </message>
    <message>
        <source>The number of timesteps (denoiser evaluations).</source>
        <translation>時刻の数 (デノイザの評価回数)。</translation>
    </message>
    <message>
        <source>leading: the offset O added to every timestep t_i = i·⌊N/S⌋ + O (S steps) (diffusers&apos; steps_offset).</source>
        <translation>leading: 各時刻 t_i = i·⌊N/S⌋ + O (S はステップ数) に加えるオフセット O (diffusers の steps_offset)。</translation>
    </message>
    <message>
        <source>Karras σ: ρ of the σ^{1/ρ} interpolation (EDM uses 7).</source>
        <translation>Karras σ: σ^{1/ρ} 補間の ρ (EDM では 7)。</translation>
    </message>
    <message>
        <source>Where Γ exceeds its bound β̄Γ ≤ 1 (a Monte Carlo or imported Γ at large n), the clipped cost makes those steps free; the segmented DP of the paper&apos;s code sets the steps after the first such n aside and spaces them evenly.</source>
        <translation>Γ が上界 β̄Γ ≤ 1 を超えるところ (大きな n でのモンテカルロ推定や読み込んだ Γ) では、クリップしたコストはそのステップのコストを 0 にします。論文のコードの分割 DP は、最初にそうなる n 以降のステップを別扱いにして等間隔に配置します。</translation>
    </message>
    <message>
        <source>DP cost</source>
        <translation>DP のコスト</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>Change trajectory</source>
        <translation>軌跡の変更</translation>
    </message>
    <message>
        <source>Change DP cost</source>
        <translation>DP のコストの変更</translation>
    </message>
    <message>
        <source>Change offset</source>
        <translation>オフセットの変更</translation>
    </message>
    <message>
        <source>Change ρ</source>
        <translation>ρ の変更</translation>
    </message>
    <message>
        <source>diffusers class</source>
        <translation>diffusers のクラス</translation>
    </message>
    <message>
        <source>Change diffusers class</source>
        <translation>diffusers のクラスの変更</translation>
    </message>
    <message>
        <source>DDIMScheduler (default)</source>
        <translation>DDIMScheduler (既定)</translation>
    </message>
    <message>
        <source>linspace, leading, trailing: the diffusers scheduler whose set_timesteps arithmetic is followed. DPMSolverMultistepScheduler and UniPCMultistepScheduler space S + 1 points and drop the last; EulerDiscreteScheduler&apos;s linspace timesteps are fractional (the nearest whole ones are used here, and its own σ are copied for k-diffusion).</source>
        <translation>linspace、leading、trailing: どの diffusers スケジューラーの set_timesteps の計算に従うか。DPMSolverMultistepScheduler と UniPCMultistepScheduler は S + 1 点を取って最後を捨てます。EulerDiscreteScheduler の linspace の時刻は小数になります (ここでは最も近い整数の時刻を使い、k-diffusion 用のコピーには EulerDiscreteScheduler 自身の σ を使います)。</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>サンプラー</translation>
    </message>
    <message>
        <source>The Particles view&apos;s left pane (Help ▸ Mathematics: gaussian.md#reverse-samplers): DDPM uses σ² = β̃, DDIM λ² = η²β̃ with the η above; the analytic kinds the optimal σ² from Γ.</source>
        <translation>粒子ビューの左側 (ヘルプ ▸ 数学的背景: gaussian.md#reverse-samplers)。DDPM は σ² = β̃、DDIM は上の η で λ² = η²β̃、analytic-ddpm と analytic-ddim は Γ から求めた最適な σ² を使います。</translation>
    </message>
    <message>
        <source>The right pane, sampled from the same noise; none hides it.</source>
        <translation>右側。同じノイズからサンプリングします。「なし」で非表示。</translation>
    </message>
    <message>
        <source>clip the first step (App. F.2)</source>
        <translation>最初のステップをクリップ (付録 F.2)</translation>
    </message>
    <message>
        <source>Cap σ² of the last reverse pair (τ_1, τ_2) at (y·(2/255)·√(π/2))² with y = %1, as the paper does when sampling.</source>
        <translation>論文のサンプリングと同様に、最後の逆過程の組 (τ_1, τ_2) の σ² を y = %1 として (y·(2/255)·√(π/2))² で頭打ちにします。</translation>
    </message>
    <message>
        <source>Particles per sampler (image data: the first 36 are sampled and shown).</source>
        <translation>サンプラーごとの粒子数 (画像データでは先頭の 36 個をサンプリングして表示)。</translation>
    </message>
    <message>
        <source>sampler A</source>
        <translation>サンプラー A</translation>
    </message>
    <message>
        <source>compare B</source>
        <translation>比較 B</translation>
    </message>
    <message>
        <source>Change sampler</source>
        <translation>サンプラーの変更</translation>
    </message>
    <message>
        <source>Change compared sampler</source>
        <translation>比較するサンプラーの変更</translation>
    </message>
    <message>
        <source>Change first-step clip</source>
        <translation>最初のステップのクリップの変更</translation>
    </message>
    <message>
        <source>Change particle count</source>
        <translation>粒子数の変更</translation>
    </message>
    <message>
        <source>Change data</source>
        <translation>データの変更</translation>
    </message>
    <message>
        <source>Use a custom schedule</source>
        <translation>独自のスケジュールを使う</translation>
    </message>
    <message>
        <source>Type the timesteps</source>
        <translation>時刻の入力</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>%1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>%1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Reading the data</source>
        <translation>データを読み込んでいます</translation>
    </message>
    <message>
        <source>custom table…</source>
        <translation>独自の表…</translation>
    </message>
    <message>
        <source>estimated (M samples per timestep)</source>
        <translation>推定 (時刻ごとに M サンプル)</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>%1 から読み込み</translation>
    </message>
    <message>
        <source>Checking the imported Γ</source>
        <translation>読み込んだ Γ を確認しています</translation>
    </message>
    <message>
        <source>The imported Γ (%1) exceeds its bound β̄ₙΓₙ ≤ 1 at %2 of %3 timesteps: n = %4. There σ² is clipped to 0 and the clipped DP passes them for free.&lt;br&gt;</source>
        <translation>読み込んだ Γ (%1) は %3 個の時刻のうち %2 個で上界 β̄ₙΓₙ ≤ 1 を超えています: n = %4。そこでは σ² を 0 にクリップし、クリップした DP はコストなしで通過します。&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;a href=&quot;clip&quot;&gt;clip Γ to its bound&lt;/a&gt;</source>
        <translation>&lt;a href=&quot;clip&quot;&gt;Γ を上界でクリップ&lt;/a&gt;</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;segmented&quot;&gt;use the segmented DP&lt;/a&gt;</source>
        <translation> · &lt;a href=&quot;segmented&quot;&gt;分割 DP を使う&lt;/a&gt;</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;keep&quot;&gt;keep as it is&lt;/a&gt;</source>
        <translation> · &lt;a href=&quot;keep&quot;&gt;そのままにする&lt;/a&gt;</translation>
    </message>
    <message>
        <source>Clipping the imported Γ</source>
        <translation>読み込んだ Γ をクリップしています</translation>
    </message>
    <message>
        <source>Clip Γ to its bound</source>
        <translation>Γ を上界でクリップ</translation>
    </message>
    <message>
        <source>custom: %1</source>
        <translation>独自: %1</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>スケジュール</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>順過程</translation>
    </message>
    <message>
        <source>data</source>
        <translation>データ</translation>
    </message>
    <message>
        <source>spec</source>
        <translation>指定</translation>
    </message>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>estimator</source>
        <translation>推定法</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>source</source>
        <translation>出所</translation>
    </message>
    <message>
        <source>file</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>offset</source>
        <translation>オフセット</translation>
    </message>
    <message>
        <source>timesteps</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>particles</source>
        <translation>粒子数</translation>
    </message>
    <message>
        <source>The ε-model: the exact oracle of the data, or a trained network (a .safetensors checkpoint or a TorchScript .pt model; you can also drop one on the window).</source>
        <translation>ε モデル: データの厳密なオラクル、または学習済みネットワーク (.safetensors のチェックポイントまたは TorchScript の .pt モデル。ウィンドウにドロップしても読み込めます)。</translation>
    </message>
    <message>
        <source>Models (*.safetensors *.pt)</source>
        <translation>モデル (*.safetensors *.pt)</translation>
    </message>
    <message>
        <source>Change the number of steps</source>
        <translation>ステップ数の変更</translation>
    </message>
    <message>
        <source>diffusers config…</source>
        <translation>diffusers の設定…</translation>
    </message>
    <message>
        <source>The β_n schedule (Help ▸ Mathematics: gaussian.md#schedules); linear with N = 1000 is DDPM&apos;s. A custom table is a CSV with a beta column (β_1..β_N) or an alpha_bar column; its length sets N. A diffusers config is a scheduler_config.json: it sets N, and its timestep_spacing the trajectory.</source>
        <translation>β_n のスケジュール (ヘルプ ▸ 数学的背景: gaussian.md#schedules)。N = 1000 の linear が DDPM のものです。独自の表は beta 列 (β_1..β_N) または alpha_bar 列を持つ CSV で、その長さが N になります。diffusers の設定は scheduler_config.json で、N を決め、その timestep_spacing が軌跡を決めます。</translation>
    </message>
    <message>
        <source>A diffusers scheduler config</source>
        <translation>diffusers のスケジューラー設定</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON ファイル (*.json)</translation>
    </message>
    <message>
        <source>Use a diffusers config</source>
        <translation>diffusers の設定を使う</translation>
    </message>
    <message>
        <source>diffusers: %1</source>
        <translation>diffusers: %1</translation>
    </message>
    <message>
        <source>Keys of %1 not used here: %2</source>
        <translation>%1 のうちここで使わないキー: %2</translation>
    </message>
    <message>
        <source>%1 names the class %2, whose spacing is not known here: DDIMScheduler&apos;s is used.</source>
        <translation>%1 はクラス %2 を指定していますが、その時刻の取り方はここでは未対応のため DDIMScheduler のものを使います。</translation>
    </message>
</context>
<context>
    <name>ui::panels::LabConfigTable</name>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>色</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>スケジュール</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>軌跡 (ステップ選択)</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>サンプラー</translation>
    </message>
    <message>
        <source>The lab&apos;s configurations. Schedule: the project&apos;s or another; trajectory: a family without its number of steps, options after a comma (leading,offset=1; karras,rho=7); variance: β̃ (small), β (large) or the analytic optimum.</source>
        <translation>実験室の設定。スケジュール: プロジェクトのもの、または別のもの。軌跡: ステップ数を除いた系列名、オプションはカンマの後 (leading,offset=1; karras,rho=7)。分散: β̃ (小)、β (大)、または解析的最適値。</translation>
    </message>
    <message>
        <source>Rename lab configuration</source>
        <translation>実験室の設定の名前変更</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>プリセット</translation>
    </message>
    <message>
        <source>The numbers of steps (timesteps, 2..N) of every sweep, e.g. 5, 10, 25, 50, 100.</source>
        <translation>各スイープのステップ数 (時刻の数、2..N)。例: 5, 10, 25, 50, 100。</translation>
    </message>
    <message>
        <source>Samples drawn per configuration and number of steps for the sample quality (0: no quality, only the NLL).</source>
        <translation>サンプルの品質評価のため設定とステップ数ごとに生成するサンプル数 (0: 品質評価なし、NLL のみ)。</translation>
    </message>
    <message>
        <source>Numbers of steps</source>
        <translation>ステップ数のリスト</translation>
    </message>
    <message>
        <source>Quality samples</source>
        <translation>品質評価のサンプル数</translation>
    </message>
    <message>
        <source>Change the lab&apos;s numbers of steps</source>
        <translation>実験室のステップ数のリストの変更</translation>
    </message>
    <message>
        <source>Change lab quality samples</source>
        <translation>実験室の品質評価サンプル数の変更</translation>
    </message>
    <message>
        <source>Add lab configuration</source>
        <translation>実験室の設定の追加</translation>
    </message>
    <message>
        <source>Duplicate lab configuration</source>
        <translation>実験室の設定の複製</translation>
    </message>
    <message>
        <source>Remove lab configuration</source>
        <translation>実験室の設定の削除</translation>
    </message>
    <message>
        <source>Change lab colour</source>
        <translation>実験室の色の変更</translation>
    </message>
    <message>
        <source>lab preset = %1: unknown preset</source>
        <translation>lab preset = %1: 不明なプリセットです</translation>
    </message>
    <message>
        <source>Apply lab preset “%1”</source>
        <translation>実験室のプリセット「%1」を適用</translation>
    </message>
    <message>
        <source>Pick the configuration&apos;s colour</source>
        <translation>設定の色を選ぶ</translation>
    </message>
    <message>
        <source>project&apos;s</source>
        <translation>プロジェクトのもの</translation>
    </message>
    <message>
        <source>project&apos;s, zero terminal SNR</source>
        <translation>プロジェクトのもの、終端 SNR ゼロ</translation>
    </message>
    <message>
        <source>Change lab schedule</source>
        <translation>実験室のスケジュールの変更</translation>
    </message>
    <message>
        <source>Change lab trajectory</source>
        <translation>実験室の軌跡の変更</translation>
    </message>
    <message>
        <source>Change lab variance</source>
        <translation>実験室の分散の変更</translation>
    </message>
    <message>
        <source>Change lab sampler</source>
        <translation>実験室のサンプラーの変更</translation>
    </message>
</context>
<context>
    <name>ui::panels::MixtureEditor</name>
    <message>
        <source>Drag a centre to move a component, its circle (radius s) or the wheel to change s, Ctrl+drag or Ctrl+wheel to change its weight. Double-click empty space to add a component; right-click one, or select it and press Delete, to remove it.</source>
        <translation>中心をドラッグすると成分を移動、円 (半径 s) のドラッグまたはホイールで s を変更、Ctrl+ドラッグまたは Ctrl+ホイールで重みを変更します。何もない所をダブルクリックすると成分を追加、成分を右クリックするか選択して Delete を押すと削除します。</translation>
    </message>
    <message>
        <source>component %1: weight %2 (share %3), mean (%4, %5), s = %6</source>
        <translation>成分 %1: 重み %2 (割合 %3)、平均 (%4, %5)、s = %6</translation>
    </message>
    <message>
        <source>Move mixture component</source>
        <translation>混合成分の移動</translation>
    </message>
    <message>
        <source>Change mixture s</source>
        <translation>混合成分の s の変更</translation>
    </message>
    <message>
        <source>Change mixture weight</source>
        <translation>混合成分の重みの変更</translation>
    </message>
    <message>
        <source>Add mixture component</source>
        <translation>混合成分の追加</translation>
    </message>
    <message>
        <source>Remove mixture component</source>
        <translation>混合成分の削除</translation>
    </message>
</context>
<context>
    <name>ui::panels::ProbabilityBars</name>
    <message>
        <source>Drag a bar to change its probability; the others rescale to keep the sum 1.</source>
        <translation>棒をドラッグすると確率を変更します。合計が 1 になるよう他の棒が拡大縮小されます。</translation>
    </message>
</context>
<context>
    <name>ui::panels::ScheduleCurveEditor</name>
    <message>
        <source>Drag a point to reshape β(t); double-click to add a point, right-click a point to remove it.</source>
        <translation>点をドラッグして β(t) の形を変えます。ダブルクリックで点を追加、右クリックで点を削除します。</translation>
    </message>
    <message>
        <source>β(t) of the chosen schedule; choose &apos;custom&apos; to edit it.</source>
        <translation>選んだスケジュールの β(t)。編集するには「独自」を選んでください。</translation>
    </message>
</context>
<context>
    <name>ui::panels::choices</name>
    <message>
        <source>linear: β = t</source>
        <translation>linear: β = t</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>cosine</translation>
    </message>
    <message>
        <source>power: β = tᵖ</source>
        <translation>power: β = tᵖ</translation>
    </message>
    <message>
        <source>custom (drag points)</source>
        <translation>独自 (点をドラッグ)</translation>
    </message>
    <message>
        <source>information-linear</source>
        <translation>information-linear</translation>
    </message>
    <message>
        <source>even</source>
        <translation>等間隔</translation>
    </message>
    <message>
        <source>DP-optimal</source>
        <translation>DP 最適</translation>
    </message>
    <message>
        <source>typed list</source>
        <translation>入力リスト</translation>
    </message>
    <message>
        <source>table (edit below)</source>
        <translation>表 (下で編集)</translation>
    </message>
    <message>
        <source>8×8 digits</source>
        <translation>8×8 の数字画像</translation>
    </message>
    <message>
        <source>table file (CSV)…</source>
        <translation>表ファイル (CSV)…</translation>
    </message>
    <message>
        <source>quadratic</source>
        <translation>二次</translation>
    </message>
    <message>
        <source>linspace (diffusers)</source>
        <translation>linspace (diffusers)</translation>
    </message>
    <message>
        <source>leading (diffusers)</source>
        <translation>leading (diffusers)</translation>
    </message>
    <message>
        <source>trailing (diffusers)</source>
        <translation>trailing (diffusers)</translation>
    </message>
    <message>
        <source>uniform log-SNR (DPM-Solver)</source>
        <translation>対数 SNR 一様 (DPM-Solver)</translation>
    </message>
    <message>
        <source>Karras σ (EDM)</source>
        <translation>Karras σ (EDM)</translation>
    </message>
    <message>
        <source>clipped cost (default)</source>
        <translation>クリップしたコスト (既定)</translation>
    </message>
    <message>
        <source>segmented (paper code)</source>
        <translation>分割 (論文のコード)</translation>
    </message>
    <message>
        <source>analytic-ddpm</source>
        <translation>analytic-ddpm</translation>
    </message>
    <message>
        <source>analytic-ddim</source>
        <translation>analytic-ddim</translation>
    </message>
    <message>
        <source>ddpm</source>
        <translation>ddpm</translation>
    </message>
    <message>
        <source>ddim</source>
        <translation>ddim</translation>
    </message>
    <message>
        <source>dpm-solver-1</source>
        <translation>dpm-solver-1</translation>
    </message>
    <message>
        <source>dpm-solver++(2M)</source>
        <translation>dpm-solver++(2M)</translation>
    </message>
    <message>
        <source>dpm-solver++(3M)</source>
        <translation>dpm-solver++(3M)</translation>
    </message>
    <message>
        <source>low-variance (default)</source>
        <translation>低分散 (既定)</translation>
    </message>
    <message>
        <source>score ‖ε_θ‖²/d (paper)</source>
        <translation>スコア ‖ε_θ‖²/d (論文)</translation>
    </message>
    <message>
        <source>denoising (exact oracle only)</source>
        <translation>ノイズ除去 (厳密なオラクルのみ)</translation>
    </message>
    <message>
        <source>error 1 − ‖ε_θ − ε‖²/d</source>
        <translation>誤差 1 − ‖ε_θ − ε‖²/d</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>linear</translation>
    </message>
    <message>
        <source>scaled-linear</source>
        <translation>scaled-linear</translation>
    </message>
    <message>
        <source>sigmoid</source>
        <translation>sigmoid</translation>
    </message>
    <message>
        <source>linear, zero terminal SNR</source>
        <translation>linear、終端 SNR ゼロ</translation>
    </message>
    <message>
        <source>cosine, zero terminal SNR</source>
        <translation>cosine、終端 SNR ゼロ</translation>
    </message>
    <message>
        <source>scaled-linear, zero terminal SNR</source>
        <translation>scaled-linear、終端 SNR ゼロ</translation>
    </message>
    <message>
        <source>sigmoid, zero terminal SNR</source>
        <translation>sigmoid、終端 SNR ゼロ</translation>
    </message>
    <message>
        <source>two moons</source>
        <translation>2 つの三日月</translation>
    </message>
    <message>
        <source>checkerboard</source>
        <translation>市松模様</translation>
    </message>
    <message>
        <source>swiss roll</source>
        <translation>スイスロール</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>リング</translation>
    </message>
    <message>
        <source>Gaussian N(0, 0.5² I), d = 2</source>
        <translation>ガウス分布 N(0, 0.5² I)、d = 2</translation>
    </message>
    <message>
        <source>8×8 digits (64-D, training split)</source>
        <translation>8×8 の数字画像 (64 次元、学習用分割)</translation>
    </message>
    <message>
        <source>β̃ (small)</source>
        <translation>β̃ (小)</translation>
    </message>
    <message>
        <source>β (large)</source>
        <translation>β (大)</translation>
    </message>
    <message>
        <source>analytic optimum</source>
        <translation>解析的最適値</translation>
    </message>
    <message>
        <source>Gaussian mixture (drag on the plane)</source>
        <translation>混合ガウス分布 (平面上でドラッグ)</translation>
    </message>
    <message>
        <source>Align Your Steps (SD 1.5)</source>
        <translation>AYS 法（SD 1.5 の時刻列）</translation>
    </message>
    <message>
        <source>Align Your Steps (SDXL)</source>
        <translation>AYS 法（SDXL の時刻列）</translation>
    </message>
</context>
<context>
    <name>ui::provenance</name>
    <message>
        <source>process</source>
        <translation>過程</translation>
    </message>
    <message>
        <source>classes K</source>
        <translation>クラス数 K</translation>
    </message>
    <message>
        <source>pi</source>
        <translation>π</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>スケジュール</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>data</source>
        <translation>データ</translation>
    </message>
    <message>
        <source>condition</source>
        <translation>条件</translation>
    </message>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>trajectory</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>path steps</source>
        <translation>経路のステップ数</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>カーネル</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>eta</source>
        <translation>η</translation>
    </message>
    <message>
        <source>gamma</source>
        <translation>Γ</translation>
    </message>
    <message>
        <source>dp cost</source>
        <translation>DP のコスト</translation>
    </message>
    <message>
        <source>sampler</source>
        <translation>サンプラー</translation>
    </message>
    <message>
        <source>compare sampler</source>
        <translation>比較するサンプラー</translation>
    </message>
    <message>
        <source>categorical schedule</source>
        <translation>カテゴリカルのスケジュール</translation>
    </message>
    <message>
        <source>categorical N</source>
        <translation>カテゴリカルの N</translation>
    </message>
    <message>
        <source>gaussian schedule</source>
        <translation>ガウスのスケジュール</translation>
    </message>
    <message>
        <source>gaussian N</source>
        <translation>ガウスの N</translation>
    </message>
    <message>
        <source>categorical</source>
        <translation>カテゴリカル</translation>
    </message>
    <message>
        <source>gaussian</source>
        <translation>ガウス</translation>
    </message>
    <message>
        <source>exact oracle of the data</source>
        <translation>データの厳密なオラクル</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>the mask state</source>
        <translation>マスク状態</translation>
    </message>
    <message>
        <source>the 8x8 digits</source>
        <translation>8×8 の数字画像</translation>
    </message>
    <message>
        <source>estimated, M = %1, estimator %2, seed %3</source>
        <translation>推定 (M = %1、推定量 %2、シード %3)</translation>
    </message>
    <message>
        <source>imported (%1)</source>
        <translation>読み込み (%1)</translation>
    </message>
    <message>
        <source>%1 and a mask state</source>
        <translation>%1 とマスク状態</translation>
    </message>
    <message>
        <source>%1, %2 levels</source>
        <translation>%1、%2 段階</translation>
    </message>
</context>
<context>
    <name>ui::training::TrainDialog</name>
    <message>
        <source>Train a categorical denoiser</source>
        <translation>カテゴリカルのデノイザを学習</translation>
    </message>
    <message>
        <source>Train a Gaussian ε-model</source>
        <translation>ガウスの ε モデルを学習</translation>
    </message>
    <message>
        <source>Hidden units per layer.</source>
        <translation>層ごとの隠れユニット数。</translation>
    </message>
    <message>
        <source>Residual blocks.</source>
        <translation>残差ブロックの数。</translation>
    </message>
    <message>
        <source>Optimiser steps (AdamW, cosine schedule).</source>
        <translation>最適化のステップ数 (AdamW、コサインスケジュール)。</translation>
    </message>
    <message>
        <source>Examples per step.</source>
        <translation>ステップごとの事例数。</translation>
    </message>
    <message>
        <source>Peak learning rate after the warm-up.</source>
        <translation>ウォームアップ後の最大学習率。</translation>
    </message>
    <message>
        <source>Initialisation and every random draw.</source>
        <translation>初期化とすべての乱数に使うシード。</translation>
    </message>
    <message>
        <source>Where the checkpoint is saved (safetensors; written atomically).</source>
        <translation>チェックポイントの保存先 (safetensors、アトミックに書き込み)。</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学習率</translation>
    </message>
    <message>
        <source>save to</source>
        <translation>保存先</translation>
    </message>
    <message>
        <source>Set the fields and press Train.</source>
        <translation>各欄を設定して「学習」を押してください。</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>学習</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <source>Continue the stopped run saved in the checkpoint file with its own settings; the result equals a run that never stopped.</source>
        <translation>チェックポイントファイルに保存された中断済みの実行を、その設定のまま続けます。結果は中断しなかった場合と同じになります。</translation>
    </message>
    <message>
        <source>Cancel training</source>
        <translation>学習をキャンセル</translation>
    </message>
    <message>
        <source>Stop now; the weights reached so far are saved and can be used (Esc).</source>
        <translation>今すぐ停止します。ここまでの重みは保存され、使うことができます (Esc)。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>損失</translation>
    </message>
    <message>
        <source>training (mean of 20 steps)</source>
        <translation>学習 (20 ステップの平均)</translation>
    </message>
    <message>
        <source>held out (EMA weights)</source>
        <translation>検証 (EMA の重み)</translation>
    </message>
    <message>
        <source>cross-entropy (nats)</source>
        <translation>交差エントロピー (nat)</translation>
    </message>
    <message>
        <source>squared error of ε</source>
        <translation>ε の二乗誤差</translation>
    </message>
    <message>
        <source>Loss (per dimension)</source>
        <translation>損失 (1 次元あたり)</translation>
    </message>
    <message>
        <source>Save the checkpoint</source>
        <translation>チェックポイントを保存</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>チェックポイント (*.safetensors)</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>学習に失敗しました: %1</translation>
    </message>
    <message>
        <source>Resume from step %1</source>
        <translation>ステップ %1 から再開</translation>
    </message>
    <message>
        <source>The checkpoint&apos;s training settings cannot be read.</source>
        <translation>チェックポイントの学習設定を読み取れません。</translation>
    </message>
    <message>
        <source>Choose where to save the checkpoint.</source>
        <translation>チェックポイントの保存先を選んでください。</translation>
    </message>
    <message>
        <source>Resuming from step %1…</source>
        <translation>ステップ %1 から再開しています…</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>学習しています…</translation>
    </message>
    <message>
        <source>Cancelled after %1 steps in %2 s; held-out loss %3. Saved %4.</source>
        <translation>%1 ステップ (%2 秒) でキャンセルしました。検証損失 %3。%4 に保存しました。</translation>
    </message>
    <message>
        <source>Trained %1 steps in %2 s; held-out loss %3. Saved %4.</source>
        <translation>%1 ステップを %2 秒で学習しました。検証損失 %3。%4 に保存しました。</translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>現在のステップの後で停止します…</translation>
    </message>
    <message>
        <source>width</source>
        <translation>幅</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深さ</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>バッチサイズ</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>step</source>
        <translation>ステップ</translation>
    </message>
</context>
<context>
    <name>ui::views</name>
    <message>
        <source>Trajectories</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Γ — the mean squared score</source>
        <translation>Γ — スコアの二乗平均</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>軌跡 (ステップ選択)</translation>
    </message>
    <message>
        <source>Kernel comparison</source>
        <translation>カーネルの比較</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>実験室</translation>
    </message>
    <message>
        <source>Matrices</source>
        <translation>遷移行列</translation>
    </message>
    <message>
        <source>Particles</source>
        <translation>粒子</translation>
    </message>
    <message>
        <source>Schedule &amp; information</source>
        <translation>スケジュールと情報量</translation>
    </message>
    <message>
        <source>Step costs and ELBO</source>
        <translation>ステップのコストと ELBO</translation>
    </message>
    <message>
        <source>Optimal reverse variance and its bounds</source>
        <translation>最適な逆過程分散とその上下界</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>復号</translation>
    </message>
</context>
<context>
    <name>ui::views::CompareView</name>
    <message>
        <source>categorical: Σ I(X₀;Xₜ) / Σ H(X₀)</source>
        <translation>カテゴリカル: Σ I(X₀;Xₜ) / Σ H(X₀)</translation>
    </message>
    <message>
        <source>Gaussian: Σ min(½ log(1 + ᾱₙvᵢ/β̄ₙ), Hᵢ) / Σ Hᵢ</source>
        <translation>ガウス: Σ min(½ log(1 + ᾱₙvᵢ/β̄ₙ), Hᵢ) / Σ Hᵢ</translation>
    </message>
    <message>
        <source>Gaussian SNR ᾱₙ/β̄ₙ [right axis]</source>
        <translation>ガウスの SNR ᾱₙ/β̄ₙ [右軸]</translation>
    </message>
    <message>
        <source>t (categorical t; Gaussian n/N)</source>
        <translation>t (カテゴリカルは t、ガウスは n/N)</translation>
    </message>
    <message>
        <source>fraction of information left</source>
        <translation>残っている情報量の割合</translation>
    </message>
    <message>
        <source>SNR (log scale)</source>
        <translation>SNR (対数目盛)</translation>
    </message>
    <message>
        <source>How fast each process destroys the same data (the 8×8 digits): the fraction of information left against time, categorical and Gaussian on one axis.</source>
        <translation>同じデータ (8×8 の数字画像) をそれぞれの過程がどれだけ速く壊すか: 残っている情報量の割合を時刻に対して、カテゴリカルとガウスを同じ軸に描きます。</translation>
    </message>
    <message>
        <source>Compare: </source>
        <translation>比較: </translation>
    </message>
    <message>
        <source>The %1 digits, for both processes (whatever data the Gaussian project uses). Categorical: %2 levels, π %3, β(t) “%4”. Gaussian: “%5”, N = %6, t = n/N. Information per pixel, capped at the pixel&apos;s entropy, summed over the 64 pixels and divided by Σ Hᵢ = %7 nats (the Explanation pane and Help ▸ Mathematics give the formulas).</source>
        <translation>両方の過程に %1 枚の数字画像を使用 (ガウスのプロジェクトが使うデータによらず)。カテゴリカル: %2 階調、π %3、β(t) “%4”。ガウス: “%5”、N = %6、t = n/N。画素ごとの情報量を画素のエントロピーで頭打ちにし、64 画素で合計して Σ Hᵢ = %7 nat で割ったもの (式は解説ペインと ヘルプ ▸ 数学的背景 を参照)。</translation>
    </message>
    <message>
        <source>from the project</source>
        <translation>プロジェクトから</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>一様</translation>
    </message>
</context>
<context>
    <name>ui::views::CommitRaster</name>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>step taken</source>
        <translation>ステップ (実行順)</translation>
    </message>
    <message>
        <source>pixel (row %1, column %2): committed at step %3 of %4 on average</source>
        <translation>画素 (%1 行 %2 列): 平均して %4 ステップ中の %3 ステップ目に確定</translation>
    </message>
    <message>
        <source>position %1 after step %2 of %3: unmasked with probability %4</source>
        <translation>位置 %1、%3 ステップ中 %2 ステップ目の後: マスクを外れている確率 %4</translation>
    </message>
</context>
<context>
    <name>ui::views::DecodingView</name>
    <message>
        <source>Entropy of the output (nats)</source>
        <translation>出力のエントロピー (nat)</translation>
    </message>
    <message>
        <source>KL(data ‖ output) (nats)</source>
        <translation>KL(データ ‖ 出力) (nat)</translation>
    </message>
    <message>
        <source>KL(output ‖ data) (nats)</source>
        <translation>KL(出力 ‖ データ) (nat)</translation>
    </message>
    <message>
        <source>Total variation</source>
        <translation>全変動距離</translation>
    </message>
    <message>
        <source>Mean entropy per position (nats)</source>
        <translation>位置あたりの平均エントロピー (nat)</translation>
    </message>
    <message>
        <source>Output distribution against the data</source>
        <translation>データと比べた出力分布</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Default samplers</source>
        <translation>既定のサンプラー</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Distribution and commits of:</source>
        <translation>分布と確定の対象:</translation>
    </message>
    <message>
        <source>at N =</source>
        <translation>N =</translation>
    </message>
    <message>
        <source>Sampler animated in Trajectories:</source>
        <translation>軌跡で再生するサンプラー:</translation>
    </message>
    <message>
        <source>Choose the animated sampler</source>
        <translation>再生するサンプラーを選ぶ</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>色</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>サンプラー</translation>
    </message>
    <message>
        <source>One decoding sampler per row. Sampler: order=ancestral|random|confidence|margin|entropy|low-confidence; values=sample|argmax|temperature:τ; remask=cap:η|rescale:η|conf|loop:η,t_on,t_off,α_on (with the ancestral order; loop with times=mdlm); gumbel=float64|float32; per-step=schedule|llada|dream|threshold:τ|eb:γ; blocks=B; times=schedule|dream|mdlm; scores=plain|tempered. Or a reference code&apos;s sampler: preset=llada:low_confidence|llada:random|dream:origin|dream:maskgit_plus|dream:topk_margin|dream:entropy|mdlm|remdm:cap:η|remdm:rescale:η|remdm:conf|remdm:loop:η,t_on,t_off,α_on|fast-dllm:τ|eb:γ with temperature=τ (not for mdlm and remdm; and blocks=B for llada, fast-dllm and eb). Keys are separated by &apos;;&apos;. Colour: #rrggbb, or empty for the palette&apos;s.</source>
        <translation>1 行に 1 つの復号サンプラー。サンプラー: order=ancestral、order=random、order=confidence、order=margin、order=entropy、order=low-confidence; values=sample、values=argmax、values=temperature:τ; remask=cap:η、remask=rescale:η、remask=conf、remask=loop:η,t_on,t_off,α_on (祖先順序のみ。remask=loop:… は times=mdlm と); gumbel=float64、gumbel=float32; per-step=schedule、per-step=llada、per-step=dream、per-step=threshold:τ、per-step=eb:γ; blocks=B; times=schedule、times=dream、times=mdlm; scores=plain、scores=tempered。参照実装のサンプラーなら preset=llada:low_confidence、preset=llada:random、preset=dream:origin、preset=dream:maskgit_plus、preset=dream:topk_margin、preset=dream:entropy、preset=mdlm、preset=remdm:cap:η、preset=remdm:rescale:η、preset=remdm:conf、preset=remdm:loop:η,t_on,t_off,α_on、preset=fast-dllm:τ、preset=eb:γ に temperature=τ (preset=mdlm と preset=remdm:… を除く。preset=llada:…、preset=fast-dllm:τ、preset=eb:γ では blocks=B も) を添えます。キーは &apos;;&apos; で区切ります。色: # に続く 16 進 6 桁 (赤・緑・青)、空欄ならパレットの色。</translation>
    </message>
    <message>
        <source>Add a sampler (ancestral order) at the end.</source>
        <translation>末尾にサンプラー (祖先順序) を追加します。</translation>
    </message>
    <message>
        <source>Add preset</source>
        <translation>プリセットを追加</translation>
    </message>
    <message>
        <source>Add a reference code&apos;s sampler as its code runs it: LLaDA&apos;s generate(), Dream&apos;s diffusion_generate, MDLM&apos;s and ReMDM&apos;s ddpm_cache, Fast-dLLM&apos;s threshold decoding or the EB-sampler. Edit its numbers, and add temperature=τ (and blocks=B for LLaDA&apos;s, Fast-dLLM&apos;s and the EB-sampler&apos;s) to its sampler string.</source>
        <translation>参照実装のサンプラーを、そのコードが動かすとおりに追加します: LLaDA の generate()、Dream の diffusion_generate、MDLM と ReMDM の ddpm_cache、Fast-dLLM のしきい値復号、EB サンプラー。数値は編集でき、サンプラー文字列に temperature=τ (LLaDA、Fast-dLLM、EB サンプラーでは blocks=B も) を書き足せます。</translation>
    </message>
    <message>
        <source>Remove the selected sampler.</source>
        <translation>選択したサンプラーを削除します。</translation>
    </message>
    <message>
        <source>Replace the samplers by the default set: ancestral; confidence with sampled values; confidence with argmax; margin; entropy; random.</source>
        <translation>サンプラーを既定の組に置き換えます: 祖先サンプラー、値をサンプルする確信度順、argmax の確信度順、マージン順、エントロピー順、ランダム順。</translation>
    </message>
    <message>
        <source>Cancel the computation; the charts keep the previous results.</source>
        <translation>計算をキャンセルします。グラフは前回の結果のままです。</translation>
    </message>
    <message>
        <source>The palette&apos;s colour %1</source>
        <translation>パレットの色 %1</translation>
    </message>
    <message>
        <source>reverse sampler (the kernel)</source>
        <translation>逆過程のサンプラー (カーネル)</translation>
    </message>
    <message>
        <source>Edit a decoding sampler</source>
        <translation>復号サンプラーを編集</translation>
    </message>
    <message>
        <source>sampler %1</source>
        <translation>サンプラー %1</translation>
    </message>
    <message>
        <source>Add a decoding sampler</source>
        <translation>復号サンプラーを追加</translation>
    </message>
    <message>
        <source>Remove a decoding sampler</source>
        <translation>復号サンプラーを削除</translation>
    </message>
    <message>
        <source>Default decoding samplers</source>
        <translation>既定の復号サンプラー</translation>
    </message>
    <message>
        <source>steps N (log)</source>
        <translation>ステップ数 N (対数)</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>nat</translation>
    </message>
    <message>
        <source>data entropy H(p)</source>
        <translation>データのエントロピー H(p)</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>data</source>
        <translation>データ</translation>
    </message>
    <message>
        <source>%1, N = %2</source>
        <translation>%1、N = %2</translation>
    </message>
    <message>
        <source>▲ infinite KL: KL(data ‖ output) when the output gives probability 0 to a data sequence, KL(output ‖ data) when it puts mass where the data has none</source>
        <translation>▲ 無限大の KL: 出力がデータの系列に確率 0 を与えるときは KL(データ ‖ 出力)、データにない系列に確率を置くときは KL(出力 ‖ データ)</translation>
    </message>
    <message>
        <source>Decoded images the classifier recognises</source>
        <translation>分類器が認識する復号画像の割合</translation>
    </message>
    <message>
        <source>fraction</source>
        <translation>割合</translation>
    </message>
    <message>
        <source>real training images</source>
        <translation>実際の学習画像</translation>
    </message>
    <message>
        <source>infinite KL</source>
        <translation>無限大の KL</translation>
    </message>
    <message>
        <source>Which token when: the probability that each position is unmasked after each step, for the sampler and N chosen above (for the digits, each pixel&apos;s mean commit step).</source>
        <translation>どのトークンがいつ確定するか: 上で選んだサンプラーと N について、各ステップの後に各位置がマスクを外れている確率 (数字画像では各画素が確定する平均ステップ)。</translation>
    </message>
    <message>
        <source>No commits for this sampler.</source>
        <translation>このサンプラーには確定の記録がありません。</translation>
    </message>
    <message>
        <source>Which pixel first: mean commit step, %1, N = %2</source>
        <translation>どの画素が先か: 確定の平均ステップ、%1、N = %2</translation>
    </message>
    <message>
        <source>Which token when: P(unmasked after each step), %1, N = %2</source>
        <translation>どのトークンがいつ: 各ステップ後にマスクを外れている確率、%1、N = %2</translation>
    </message>
    <message>
        <source>Cross-entropy per letter</source>
        <translation>1 文字あたりのクロスエントロピー</translation>
    </message>
    <message>
        <source>Pair total variation</source>
        <translation>ペアの全変動</translation>
    </message>
    <message>
        <source>Longest run of one letter</source>
        <translation>同じ文字の最長の連続</translation>
    </message>
    <message>
        <source>Decoded text: each letter on the colour of the step that unmasked it (early dark, late bright); a dot is a position still masked after the step chosen above. A letter a remasking sampler changed later counts from its last unmasking.</source>
        <translation>復号されたテキスト: 各文字はそのマスクを外したステップの色の上にあります (早いと暗く、遅いと明るい)。点は上で選んだステップの後もマスクされたままの位置です。再マスクするサンプラーが後で変えた文字は、最後にマスクを外したときから数えます。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Text after step:</source>
        <translation>ステップ後のテキスト:</translation>
    </message>
    <message>
        <source>Show the text as it stands after this many steps: later letters are still masked (·).</source>
        <translation>このステップ数の後のテキストを示します: それより後の文字はまだマスクされています (·)。</translation>
    </message>
    <message>
        <source>Decode the project's data, or sequences of a Markov chain: the bundled chain of English letters or a chain file (diffuscope chain --text fits one). On a chain the denoiser is the chain's exact one and every decoded sequence is judged by its true likelihood.</source>
        <translation>プロジェクトのデータを復号するか、マルコフ連鎖の系列を復号します: 同梱の英字の連鎖か、連鎖のファイル (コマンド diffuscope chain でテキストから当てはめられます)。連鎖ではデノイザは連鎖の厳密なもので、復号された系列はどれも真の尤度で評価されます。</translation>
    </message>
    <message>
        <source>D, the letters of each decoded sequence.</source>
        <translation>D、復号する各系列の文字数。</translation>
    </message>
    <message>
        <source>M, the sequences decoded for each sampler and N (Monte Carlo; the charts show ±1 standard error).</source>
        <translation>M、サンプラーと N ごとに復号する系列の数 (モンテカルロ。グラフには ±1 標準誤差を示します)。</translation>
    </message>
    <message>
        <source>Decode:</source>
        <translation>復号:</translation>
    </message>
    <message>
        <source>length D</source>
        <translation>長さ D</translation>
    </message>
    <message>
        <source>sequences M</source>
        <translation>系列数 M</translation>
    </message>
    <message>
        <source>Open a chain file</source>
        <translation>連鎖のファイルを開く</translation>
    </message>
    <message>
        <source>Chain files (*.json);;All files (*)</source>
        <translation>連鎖のファイル (*.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Set the decoded length D</source>
        <translation>復号する長さ D を設定</translation>
    </message>
    <message>
        <source>Set the decoded sequences M</source>
        <translation>復号する系列数 M を設定</translation>
    </message>
    <message>
        <source>the project's data</source>
        <translation>プロジェクトのデータ</translation>
    </message>
    <message>
        <source>chain %1</source>
        <translation>連鎖 %1</translation>
    </message>
    <message>
        <source>Chain file…</source>
        <translation>連鎖のファイル…</translation>
    </message>
    <message>
        <source>Decode the project's data</source>
        <translation>プロジェクトのデータを復号</translation>
    </message>
    <message>
        <source>Decode a chain</source>
        <translation>連鎖を復号</translation>
    </message>
    <message>
        <source>Text and commits of:</source>
        <translation>テキストと確定:</translation>
    </message>
    <message>
        <source>No text for this sampler.</source>
        <translation>このサンプラーのテキストはありません。</translation>
    </message>
    <message>
        <source>Decoded text, %1, N = %2</source>
        <translation>復号されたテキスト、%1、N = %2</translation>
    </message>
    <message>
        <source>letters</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>the chain's entropy</source>
        <translation>連鎖のエントロピー</translation>
    </message>
    <message>
        <source>English letters</source>
        <translation>英語の文字</translation>
    </message>
</context>
<context>
    <name>ui::views::GammaView</name>
    <message>
        <source>Γₙ (oracle, Monte Carlo)</source>
        <translation>Γₙ (オラクル、モンテカルロ)</translation>
    </message>
    <message>
        <source>Γₙ (exact oracle)</source>
        <translation>Γₙ (厳密なオラクル)</translation>
    </message>
    <message>
        <source>± 2 standard errors</source>
        <translation>± 2 標準誤差</translation>
    </message>
    <message>
        <source>E Cov[x₀|xₙ]/d ≤ Var x₀ (right)</source>
        <translation>E Cov[x₀|xₙ]/d ≤ Var x₀ (右軸)</translation>
    </message>
    <message>
        <source>Var x₀ per dimension</source>
        <translation>1 次元あたりの Var x₀</translation>
    </message>
    <message>
        <source>timestep n</source>
        <translation>時刻 n</translation>
    </message>
    <message>
        <source>Γₙ = E‖∇log qₙ(xₙ)‖²/d, estimated once per data set and model (Help ▸ Mathematics: gaussian.md#gamma); (β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) is the average posterior variance of x₀ (Section 5).</source>
        <translation>Γₙ = E‖∇log qₙ(xₙ)‖²/d。データセットとモデルごとに一度だけ推定します (ヘルプ ▸ 数学的背景: gaussian.md#gamma)。(β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) は x₀ の事後分散の平均です (第 5 節)。</translation>
    </message>
    <message>
        <source>Γₙ (%1, Monte Carlo)</source>
        <translation>Γₙ (%1、モンテカルロ)</translation>
    </message>
    <message>
        <source>M = %1 samples per timestep. E Cov[x₀|xₙ] rises from 0 towards the data variance %2 as the noise grows.</source>
        <translation>時刻ごとに M = %1 サンプル。ノイズが増えるにつれて E Cov[x₀|xₙ] は 0 からデータの分散 %2 に向かって増加します。</translation>
    </message>
    <message>
        <source>variance</source>
        <translation>分散</translation>
    </message>
</context>
<context>
    <name>ui::views::GaussianTrajectoryView</name>
    <message>
        <source>timesteps n</source>
        <translation>時刻 n</translation>
    </message>
    <message>
        <source>Every trajectory drawn above with its timesteps; select a row to copy it or to use it as the typed list.</source>
        <translation>上に描いた各軌跡とその時刻。行を選択するとコピーしたり、入力リストとして使ったりできます。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copies the selected trajectory&apos;s timesteps (comma-separated).</source>
        <translation>選択した軌跡の時刻をコピーします (カンマ区切り)。</translation>
    </message>
    <message>
        <source>Use as typed list</source>
        <translation>入力リストとして使う</translation>
    </message>
    <message>
        <source>Switches the trajectory to a typed list holding the selected timesteps (one undo step).</source>
        <translation>軌跡を、選択した時刻からなる入力リストに切り替えます (1 回の操作として元に戻せます)。</translation>
    </message>
    <message>
        <source>%1: n = %2 (timestep %3 of %4)</source>
        <translation>%1: n = %2 (%4 個中 %3 番目の時刻)</translation>
    </message>
    <message>
        <source>
step (%1, %2): J = %3</source>
        <translation>
ステップ (%1, %2): J = %3</translation>
    </message>
    <message>
        <source>s = %1 ≥ t = %2: no step</source>
        <translation>s = %1 ≥ t = %2: ステップなし</translation>
    </message>
    <message>
        <source>step (s = %1, t = %2): J = %3</source>
        <translation>ステップ (s = %1, t = %2): J = %3</translation>
    </message>
    <message>
        <source>even</source>
        <translation>等間隔</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>analytic σ²</source>
        <translation>解析的 σ²</translation>
    </message>
    <message>
        <source>Compute NLL vs steps</source>
        <translation>ステップ数ごとの NLL を計算</translation>
    </message>
    <message>
        <source>Not computed yet: the negative ELBO of 1000 points from the data&apos;s oracle for every number of steps is a job of seconds to a minute (cancel with Esc).</source>
        <translation>未計算: データのオラクルから取った 1000 点の負の ELBO をすべてのステップ数について求めるには、数秒から 1 分ほどかかります (Esc でキャンセル)。</translation>
    </message>
    <message>
        <source>Evaluates the negative ELBO (Help ▸ Mathematics: gaussian.md#nll) on the even and DP trajectories of 2 to 1000 steps (up to N) with the analytic σ², β̃ and β, reusing the Γ estimate.</source>
        <translation>等間隔と DP の軌跡について、2 から 1000 ステップ (N まで) の負の ELBO (ヘルプ ▸ 数学的背景: gaussian.md#nll) を解析的 σ²、β̃、β で評価します。Γ の推定値を再利用します。</translation>
    </message>
    <message>
        <source>Negative ELBO against the number of steps (bands: ±2 SE)</source>
        <translation>ステップ数に対する負の ELBO (帯: ±2 SE)</translation>
    </message>
    <message>
        <source>steps (denoiser evaluations)</source>
        <translation>ステップ数 (デノイザの評価回数)</translation>
    </message>
    <message>
        <source>±2 SE %1, %2</source>
        <translation>±2 SE %1, %2</translation>
    </message>
    <message>
        <source>The DP picks the timesteps whose summed cost ΣJ (the KL up to constants, Help ▸ Mathematics: conventions.md#dp-cost) is least; each step (s, t) of the path is a cell of the matrix.</source>
        <translation>DP は合計コスト ΣJ (定数を除いた KL。ヘルプ ▸ 数学的背景: conventions.md#dp-cost) が最小となる時刻を選びます。経路の各ステップ (s, t) が行列の 1 マスです。</translation>
    </message>
    <message>
        <source>Stale: computed for other schedule, data or Γ settings; press the button to recompute.</source>
        <translation>古い結果: 別のスケジュール、データ、Γ の設定で計算したものです。ボタンを押して再計算してください。</translation>
    </message>
    <message>
        <source>ΣJ along each path, the KL up to constants (Help ▸ Mathematics: conventions.md#dp-cost): DP %1, even %2, quadratic %3%4.</source>
        <translation>各経路に沿った ΣJ (定数を除いた KL。ヘルプ ▸ 数学的背景: conventions.md#dp-cost): DP %1、等間隔 %2、二次 %3%4。</translation>
    </message>
    <message>
        <source>DP-optimal</source>
        <translation>DP 最適</translation>
    </message>
    <message>
        <source>quadratic</source>
        <translation>二次</translation>
    </message>
    <message>
        <source>bits/dim</source>
        <translation>ビット/次元</translation>
    </message>
    <message>
        <source>typed list</source>
        <translation>入力リスト</translation>
    </message>
    <message>
        <source>trajectory</source>
        <translation>軌跡</translation>
    </message>
    <message>
        <source>%1 points drawn from the data&apos;s oracle (seed %2; for toy: and csv: data these are the data set&apos;s own points), 256 levels in [−1, 1]; %4; %3 s.</source>
        <translation>データのオラクルから取った %1 点 (シード %2。toy: と csv: のデータではデータセット自身の点)、[−1, 1] の 256 階調、%4、%3 秒。</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>Copy for diffusers</source>
        <translation>diffusers 用にコピー</translation>
    </message>
    <message>
        <source>Copies the selected trajectory as diffusers&apos; set_timesteps(timesteps=…) takes it: the JSON of diffuscope timesteps --as diffusers.</source>
        <translation>選択した軌跡を diffusers の set_timesteps(timesteps=…) が受け取る形でコピーします (diffuscope timesteps --as diffusers の JSON)。</translation>
    </message>
    <message>
        <source>Copy for k-diffusion</source>
        <translation>k-diffusion 用にコピー</translation>
    </message>
    <message>
        <source>Copies the selected trajectory as k-diffusion&apos;s sigmas: the JSON of diffuscope timesteps --as k-diffusion.</source>
        <translation>選択した軌跡を k-diffusion の sigmas としてコピーします (diffuscope timesteps --as k-diffusion の JSON)。</translation>
    </message>
</context>
<context>
    <name>ui::views::KernelComparisonView</name>
    <message>
        <source>data P(X₀ | C)</source>
        <translation>データ P(X₀ | C)</translation>
    </message>
    <message>
        <source>reverse sampling, closed form</source>
        <translation>逆過程サンプリング (閉形式)</translation>
    </message>
    <message>
        <source>reverse sampling, D3PM-style kernel</source>
        <translation>逆過程サンプリング (D3PM 型カーネル)</translation>
    </message>
    <message>
        <source>Where reverse sampling ends, computed exactly by propagating distributions along the trajectory from π, with the exact denoiser.</source>
        <translation>逆過程サンプリングの到達先。厳密なデノイザを用い、π から軌跡に沿って分布を伝播させて厳密に計算します。</translation>
    </message>
    <message>
        <source> (position %1, each position on its own)</source>
        <translation> (位置 %1、各位置を独立に)</translation>
    </message>
    <message>
        <source>After %1 reverse steps%4: KL(data ‖ closed form) = %2 nats, KL(data ‖ D3PM-style) = %3 nats.</source>
        <translation>逆過程 %1 ステップ後%4: KL(データ ‖ 閉形式) = %2 nat、KL(データ ‖ D3PM 型) = %3 nat。</translation>
    </message>
    <message>
        <source>class</source>
        <translation>クラス</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>The reverse marginals use the denoiser of one condition: choose one.</source>
        <translation>逆過程の周辺分布は一つの条件のデノイザーを使います。条件を一つ選んでください。</translation>
    </message>
</context>
<context>
    <name>ui::views::LabView</name>
    <message>
        <source>DP optimum (reference)</source>
        <translation>DP 最適 (基準)</translation>
    </message>
    <message>
        <source>DP optimum</source>
        <translation>DP 最適</translation>
    </message>
    <message>
        <source>±2 SE </source>
        <translation>±2 SE </translation>
    </message>
    <message>
        <source> (log)</source>
        <translation> (対数)</translation>
    </message>
    <message>
        <source>steps (timesteps)</source>
        <translation>ステップ数 (時刻の数)</translation>
    </message>
    <message>
        <source>steps (timesteps, log)</source>
        <translation>ステップ数 (時刻の数、対数)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Steps for the timesteps and step costs:</source>
        <translation>時刻とステップコストを表示するステップ数:</translation>
    </message>
    <message>
        <source>Timestep axis:</source>
        <translation>時刻の軸:</translation>
    </message>
    <message>
        <source>log-SNR λ</source>
        <translation>対数 SNR λ</translation>
    </message>
    <message>
        <source>σ (log)</source>
        <translation>σ (対数)</translation>
    </message>
    <message>
        <source>Step costs against:</source>
        <translation>ステップコストの横軸:</translation>
    </message>
    <message>
        <source>the step&apos;s t</source>
        <translation>ステップの t</translation>
    </message>
    <message>
        <source>step index</source>
        <translation>ステップ番号</translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Per-step cost</source>
        <translation>ステップごとのコスト</translation>
    </message>
    <message>
        <source>Negative ELBO against the number of steps</source>
        <translation>ステップ数に対する負の ELBO</translation>
    </message>
    <message>
        <source>Sample quality against the number of steps</source>
        <translation>ステップ数に対するサンプルの品質</translation>
    </message>
    <message>
        <source>The schedule lab: several configurations side by side on the same data and model, with the DP-optimal trajectory as the reference (Help ▸ Mathematics: gaussian.md#schedule-lab).</source>
        <translation>スケジュール実験室: 同じデータとモデルで複数の設定を並べて比較し、DP 最適な軌跡を基準とします (ヘルプ ▸ 数学的背景: gaussian.md#schedule-lab)。</translation>
    </message>
    <message>
        <source>Not run yet: add configurations or pick a preset, then press Run.</source>
        <translation>未実行: 設定を追加するかプリセットを選び、「実行」を押してください。</translation>
    </message>
    <message>
        <source>Runs every configuration for every number of steps of the list, and the DP optimum (a job; Esc or Cancel stops it and keeps the previous results).</source>
        <translation>リストのすべてのステップ数について各設定と DP 最適を実行します (ジョブ。Esc またはキャンセルで中断し、前回の結果を残します)。</translation>
    </message>
    <message>
        <source>Cancel the run; the charts keep the previous results.</source>
        <translation>実行をキャンセルします。グラフは前回の結果のままです。</translation>
    </message>
    <message>
        <source>Running: %1 (%2%)…</source>
        <translation>実行中: %1 (%2%)…</translation>
    </message>
    <message>
        <source>DP optimum: </source>
        <translation>DP 最適: </translation>
    </message>
    <message>
        <source>timestep n</source>
        <translation>時刻 n</translation>
    </message>
    <message>
        <source>log-SNR λ = ½ log(ᾱ/β̄)</source>
        <translation>対数 SNR λ = ½ log(ᾱ/β̄)</translation>
    </message>
    <message>
        <source>σ = √(β̄/ᾱ) (log)</source>
        <translation>σ = √(β̄/ᾱ) (対数)</translation>
    </message>
    <message>
        <source>Timesteps with %1 steps</source>
        <translation>%1 ステップの時刻</translation>
    </message>
    <message>
        <source>step j (1: decoder, last: prior)</source>
        <translation>ステップ j (1: デコーダ、最後: 事前分布)</translation>
    </message>
    <message>
        <source>the step&apos;s later timestep t (prior not shown)</source>
        <translation>ステップの後側の時刻 t (事前分布は非表示)</translation>
    </message>
    <message>
        <source>Per-step cost with %1 steps (terms of the negative ELBO)</source>
        <translation>%1 ステップでのステップごとのコスト (負の ELBO の各項)</translation>
    </message>
    <message>
        <source>no quality (quality samples = 0)</source>
        <translation>品質なし (品質評価のサンプル数 = 0)</translation>
    </message>
    <message>
        <source>Negative ELBO against the number of steps%1</source>
        <translation>ステップ数に対する負の ELBO%1</translation>
    </message>
    <message>
        <source> (bands: ±2 SE)</source>
        <translation> (帯: ±2 SE)</translation>
    </message>
    <message>
        <source>Distance of the samples to held-out data%1 (lower is better)</source>
        <translation>サンプルと検証データの距離%1 (小さいほど良い)</translation>
    </message>
    <message>
        <source>Stale: the configurations, numbers of steps or the project&apos;s schedule, data, model or Γ settings changed since this run; press Run to recompute.</source>
        <translation>古い結果: この実行の後で設定、ステップ数のリスト、またはプロジェクトのスケジュール・データ・モデル・Γ の設定が変わりました。「実行」を押して再計算してください。</translation>
    </message>
    <message>
        <source>%1 configuration(s) and the DP optimum on %2 (model: %3), N = %4.</source>
        <translation>%1 個の設定と DP 最適、データ %2 (モデル: %3)、N = %4。</translation>
    </message>
    <message>
        <source>%1 of them could not run: why is said in red above the charts.</source>
        <translation>うち %1 個は実行できませんでした。理由はグラフの上に赤で示しています。</translation>
    </message>
    <message>
        <source>bits/dim</source>
        <translation>ビット/次元</translation>
    </message>
    <message>
        <source>MMD² (unbiased)</source>
        <translation>MMD² (不偏推定)</translation>
    </message>
    <message>
        <source>Fréchet distance</source>
        <translation>フレシェ距離</translation>
    </message>
    <message>
        <source>DP optimum (reference): %1</source>
        <translation>DP 最適 (基準): %1</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>Steps in log σ:</source>
        <translation>log σ でのステップ:</translation>
    </message>
    <message>
        <source>the step</source>
        <translation>ステップ幅</translation>
    </message>
    <message>
        <source>the ratio</source>
        <translation>比</translation>
    </message>
    <message>
        <source>The fifth chart: each step in log σ, or its ratio to the step before.</source>
        <translation>5 つ目のグラフ: log σ での各ステップ幅、またはその前のステップとの比。</translation>
    </message>
    <message>
        <source>Steps in log σ</source>
        <translation>log σ でのステップ幅</translation>
    </message>
    <message>
        <source>Copy for diffusers</source>
        <translation>diffusers 用にコピー</translation>
    </message>
    <message>
        <source>Copy for k-diffusion</source>
        <translation>k-diffusion 用にコピー</translation>
    </message>
    <message>
        <source>Copies the selected configuration&apos;s timesteps at the chosen number of steps as diffuscope timesteps --as diffusers prints them.</source>
        <translation>選択した設定の、選んだステップ数での時刻を diffuscope timesteps --as diffusers の出力どおりにコピーします。</translation>
    </message>
    <message>
        <source>Copies the selected configuration&apos;s σ at the chosen number of steps as diffuscope timesteps --as k-diffusion prints them.</source>
        <translation>選択した設定の、選んだステップ数での σ を diffuscope timesteps --as k-diffusion の出力どおりにコピーします。</translation>
    </message>
    <message>
        <source>step k (timesteps increasing)</source>
        <translation>ステップ k (時刻の昇順)</translation>
    </message>
    <message>
        <source>step ratio</source>
        <translation>ステップの比</translation>
    </message>
    <message>
        <source>step in log σ</source>
        <translation>log σ でのステップ幅</translation>
    </message>
    <message>
        <source>Ratio of consecutive steps in log σ with %1 steps</source>
        <translation>%1 ステップでの log σ の連続するステップの比</translation>
    </message>
    <message>
        <source>Steps in log σ with %1 steps</source>
        <translation>%1 ステップでの log σ のステップ幅</translation>
    </message>
</context>
<context>
    <name>ui::views::MatricesView</name>
    <message>
        <source>Hover a cell to see where its value comes from.</source>
        <translation>マスにマウスを重ねると、その値の導出が表示されます。</translation>
    </message>
    <message>
        <source>row i = x₀, column j = xₜ</source>
        <translation>行 i = x₀、列 j = xₜ</translation>
    </message>
    <message>
        <source>row k = xₛ, column j = xₜ</source>
        <translation>行 k = xₛ、列 j = xₜ</translation>
    </message>
    <message>
        <source>Q = P(Xₛ | Xₜ)   (%1 kernel)</source>
        <translation>Q = P(Xₛ | Xₜ)   (%1 カーネル)</translation>
    </message>
    <message>
        <source>D3PM-style</source>
        <translation>D3PM 型</translation>
    </message>
    <message>
        <source>row j = xₜ, column k = xₛ</source>
        <translation>行 j = xₜ、列 k = xₛ</translation>
    </message>
    <message>
        <source> Position %1 of %2, with its own marginal posterior as F.</source>
        <translation> 位置 %1 / %2。F にはその位置の周辺事後分布を使用。</translation>
    </message>
    <message>
        <source>Grid nodes %1 and %2 (%3): Pₛ,ₜ steps forward from s to t, Q back from t to s; condition C = %4.%5 Hover a cell for its formula.</source>
        <translation>格子ノード %1 と %2 (%3): Pₛ,ₜ は s から t へ順方向に、Q は t から s へ逆方向に進みます。条件 C = %4。%5 マスにマウスを重ねると式が表示されます。</translation>
    </message>
    <message>
        <source>&lt;b&gt;P₀,ₜ[%1, %2] = %3&lt;/b&gt;&lt;br&gt;= (1 − βₜ)·δ&lt;sub&gt;ij&lt;/sub&gt; + βₜ·π&lt;sub&gt;j&lt;/sub&gt;&lt;br&gt;= (1 − %4)·%5 + %4·%6</source>
        <translation>&lt;b&gt;P₀,ₜ[%1, %2] = %3&lt;/b&gt;&lt;br&gt;= (1 − βₜ)·δ&lt;sub&gt;ij&lt;/sub&gt; + βₜ·π&lt;sub&gt;j&lt;/sub&gt;&lt;br&gt;= (1 − %4)·%5 + %4·%6</translation>
    </message>
    <message>
        <source>&lt;b&gt;Pₛ,ₜ[%1, %2] = %3&lt;/b&gt;&lt;br&gt;= keep·δ&lt;sub&gt;kj&lt;/sub&gt; + (1 − keep)·π&lt;sub&gt;j&lt;/sub&gt;, keep = (1 − βₜ)/(1 − βₛ)&lt;br&gt;keep = (1 − %4)/(1 − %5) = %6&lt;br&gt;= %6·%7 + %8·%9</source>
        <translation>&lt;b&gt;Pₛ,ₜ[%1, %2] = %3&lt;/b&gt;&lt;br&gt;= r·δ&lt;sub&gt;kj&lt;/sub&gt; + (1 − r)·π&lt;sub&gt;j&lt;/sub&gt;、保持確率 r = (1 − βₜ)/(1 − βₛ)&lt;br&gt;r = (1 − %4)/(1 − %5) = %6&lt;br&gt;= %6·%7 + %8·%9</translation>
    </message>
    <message>
        <source>&lt;b&gt;Q[%1, %2] = %3&lt;/b&gt;&lt;br&gt;D3PM-style: ∝ Σ&lt;sub&gt;i&lt;/sub&gt; F&lt;sub&gt;j&lt;/sub&gt;[i]·P₀,ₛ[i, k]·Pₛ,ₜ[k, j], normalised over k (no division by P₀,ₜ[i, j])</source>
        <translation>&lt;b&gt;Q[%1, %2] = %3&lt;/b&gt;&lt;br&gt;D3PM 型: ∝ Σ&lt;sub&gt;i&lt;/sub&gt; F&lt;sub&gt;j&lt;/sub&gt;[i]·P₀,ₛ[i, k]·Pₛ,ₜ[k, j]、k について正規化 (P₀,ₜ[i, j] で割らない)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Q[%1, %2] = %3&lt;/b&gt;&lt;br&gt;no noise between s and t: q&lt;sub&gt;j&lt;/sub&gt; = δ&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>&lt;b&gt;Q[%1, %2] = %3&lt;/b&gt;&lt;br&gt;s と t の間にノイズなし: q&lt;sub&gt;j&lt;/sub&gt; = δ&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Q[%1, %2] = q&lt;sub&gt;j&lt;/sub&gt;[k] = %3&lt;/b&gt; (closed form, Help ▸ Mathematics: categorical.md#reverse-kernel)&lt;br&gt;= (βₜ − βₛ)/βₜ · F&lt;sub&gt;j&lt;/sub&gt;[k]&lt;br&gt;+ (βₜ − βₛ)βₛ/((1 − βₛ)βₜ) · ((1 − βₜ)(1 − F&lt;sub&gt;j&lt;/sub&gt;[j]) + βₜ π&lt;sub&gt;j&lt;/sub&gt;)/d&lt;sub&gt;j&lt;/sub&gt; · π&lt;sub&gt;k&lt;/sub&gt;&lt;br&gt;+ βₛ(1 − βₜ)/((1 − βₛ)βₜ) · (1 + (βₜ − βₛ)F&lt;sub&gt;j&lt;/sub&gt;[j]/d&lt;sub&gt;j&lt;/sub&gt;) · δ&lt;sub&gt;jk&lt;/sub&gt;&lt;br&gt;with βₛ = %4, βₜ = %5, F&lt;sub&gt;j&lt;/sub&gt;[k] = %6, F&lt;sub&gt;j&lt;/sub&gt;[j] = %7, π&lt;sub&gt;j&lt;/sub&gt; = %8, π&lt;sub&gt;k&lt;/sub&gt; = %9, d&lt;sub&gt;j&lt;/sub&gt; = %10&lt;br&gt;= %11·%6 + %12·%13·%9 + %14·%15·%16</source>
        <translation>&lt;b&gt;Q[%1, %2] = q&lt;sub&gt;j&lt;/sub&gt;[k] = %3&lt;/b&gt; (閉形式、ヘルプ ▸ 数学的背景: categorical.md#reverse-kernel)&lt;br&gt;= (βₜ − βₛ)/βₜ · F&lt;sub&gt;j&lt;/sub&gt;[k]&lt;br&gt;+ (βₜ − βₛ)βₛ/((1 − βₛ)βₜ) · ((1 − βₜ)(1 − F&lt;sub&gt;j&lt;/sub&gt;[j]) + βₜ π&lt;sub&gt;j&lt;/sub&gt;)/d&lt;sub&gt;j&lt;/sub&gt; · π&lt;sub&gt;k&lt;/sub&gt;&lt;br&gt;+ βₛ(1 − βₜ)/((1 − βₛ)βₜ) · (1 + (βₜ − βₛ)F&lt;sub&gt;j&lt;/sub&gt;[j]/d&lt;sub&gt;j&lt;/sub&gt;) · δ&lt;sub&gt;jk&lt;/sub&gt;&lt;br&gt;ここで βₛ = %4、βₜ = %5、F&lt;sub&gt;j&lt;/sub&gt;[k] = %6、F&lt;sub&gt;j&lt;/sub&gt;[j] = %7、π&lt;sub&gt;j&lt;/sub&gt; = %8、π&lt;sub&gt;k&lt;/sub&gt; = %9、d&lt;sub&gt;j&lt;/sub&gt; = %10&lt;br&gt;= %11·%6 + %12·%13·%9 + %14·%15·%16</translation>
    </message>
    <message>
        <source>closed-form</source>
        <translation>閉形式</translation>
    </message>
    <message>
        <source>The matrices use the denoiser of one condition: choose one.</source>
        <translation>行列は一つの条件のデノイザーを使います。条件を一つ選んでください。</translation>
    </message>
</context>
<context>
    <name>ui::views::ParticleCanvas</name>
    <message>
        <source>Sampling particles…</source>
        <translation>粒子をサンプリングしています…</translation>
    </message>
    <message>
        <source>   ·   grey: the data density</source>
        <translation>   ·   灰色: データの密度</translation>
    </message>
</context>
<context>
    <name>ui::views::ParticlesView</name>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>The frame: forward from x_0 to the last timestep, then reverse back to x_0.</source>
        <translation>フレーム: 順過程で x_0 から最後の時刻まで、続いて逆過程で x_0 まで戻ります。</translation>
    </message>
    <message>
        <source>Particles under the forward process, then under two reverse samplers started from the same noise; grey beneath: the data density.</source>
        <translation>順過程での粒子、続いて同じノイズから始めた 2 つの逆過程サンプラーでの粒子。背景の灰色: データの密度。</translation>
    </message>
    <message>
        <source>%1 particles, %2 timesteps</source>
        <translation>粒子 %1 個、時刻 %2 個</translation>
    </message>
    <message>
        <source> (%1 requested: %2)</source>
        <translation> (%1 個を要求: %2)</translation>
    </message>
    <message>
        <source>the first images are shown</source>
        <translation>先頭の画像を表示しています</translation>
    </message>
    <message>
        <source>fewer fit in memory at this number of steps</source>
        <translation>このステップ数ではメモリに収まる数が少なくなります</translation>
    </message>
    <message>
        <source>forward n = %1</source>
        <translation>順過程 n = %1</translation>
    </message>
    <message>
        <source>reverse n = %1</source>
        <translation>逆過程 n = %1</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <source>%1   (frame %2 of %3)</source>
        <translation>%1   (フレーム %2 / %3)</translation>
    </message>
    <message>
        <source>Play or pause the particles: forward process, then reverse sampling (Space, Play menu).</source>
        <translation>粒子を再生または一時停止します: 順過程、次に逆過程のサンプリング (Space、再生メニュー)。</translation>
    </message>
    <message>
        <source>One frame back (Left)</source>
        <translation>1 フレーム戻る (←)</translation>
    </message>
    <message>
        <source>One frame on (Right)</source>
        <translation>1 フレーム進む (→)</translation>
    </message>
    <message>
        <source>Playback speed: 1× plays all frames in about 6 s</source>
        <translation>再生速度: 1× ですべてのフレームを約 6 秒で再生します</translation>
    </message>
    <message>
        <source>loop</source>
        <translation>ループ</translation>
    </message>
    <message>
        <source>Start again after the last frame; off: stop on it</source>
        <translation>最後のフレームの後に最初から再生します。オフ: 最後で止まります</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速度</translation>
    </message>
</context>
<context>
    <name>ui::views::ScheduleView</name>
    <message>
        <source>I(X₀;Xₜ) [bits, right axis]</source>
        <translation>I(X₀;Xₜ) [ビット、右軸]</translation>
    </message>
    <message>
        <source>impurity Gₜ</source>
        <translation>不純度 Gₜ</translation>
    </message>
    <message>
        <source>trajectory nodes</source>
        <translation>軌跡のノード</translation>
    </message>
    <message>
        <source>time slider</source>
        <translation>時刻スライダー</translation>
    </message>
    <message>
        <source>β(t) and the keep probability on the left axis; the mutual information between the data and its noisy version, in bits, on the right axis.</source>
        <translation>左軸: β(t) と保持確率。右軸: データとそのノイズ付き版の相互情報量 (ビット)。</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>bits</source>
        <translation>ビット</translation>
    </message>
    <message>
        <source>H(X₀ | C = %1) = %2 bits = %3 nats (the step costs and ELBOs are in nats)</source>
        <translation>H(X₀ | C = %1) = %2 ビット = %3 nat (ステップコストと ELBO は nat 単位)</translation>
    </message>
    <message>
        <source>Gₜ,d summed over d</source>
        <translation>Gₜ,d の d についての和</translation>
    </message>
    <message>
        <source>I(X₀,d; Xₜ,d) summed over d [bits, right axis]</source>
        <translation>I(X₀,d; Xₜ,d) の d についての和 [ビット、右軸]</translation>
    </message>
    <message>
        <source>impurity Gₜ,d summed over d [own axis]</source>
        <translation>不純度 Gₜ,d の d についての和 [専用の軸]</translation>
    </message>
    <message>
        <source>; the curves are sums over the %1 positions and start at the sum over d of H(X₀,d | C) = %2 nats, an upper bound of H(X₀ | C)</source>
        <translation>。曲線は %1 個の位置の和で、H(X₀ | C) の上界である H(X₀,d | C) の d についての和 = %2 nat から始まります</translation>
    </message>
    <message>
        <source>all, averaged</source>
        <translation>すべて（平均）</translation>
    </message>
</context>
<context>
    <name>ui::views::StepCostView</name>
    <message>
        <source>J(n − 1, n) [nats]</source>
        <translation>J(n − 1, n) [nat]</translation>
    </message>
    <message>
        <source>DP path nodes</source>
        <translation>DP 経路のノード</translation>
    </message>
    <message>
        <source>even path nodes</source>
        <translation>等間隔経路のノード</translation>
    </message>
    <message>
        <source>The KL cost of each grid step; the DP picks the path of the chosen number of steps of least total cost (the negative ELBO).</source>
        <translation>格子の各ステップの KL コスト。DP は合計コスト (負の ELBO) が最小の 選んだステップ数の経路を選びます。</translation>
    </message>
    <message>
        <source>
Masked diffusion: continuous-time negative ELBO (N → ∞) %1 nats</source>
        <translation>
マスク拡散: 連続時間の負の ELBO (N → ∞) %1 nat</translation>
    </message>
    <message>
        <source> · N-step: </source>
        <translation> · N ステップ: </translation>
    </message>
    <message>
        <source>Monte Carlo estimates (the positions&apos; joint states are too many to enumerate). Negative ELBO of all %1 steps: %2 nats. The DP needs every pair of steps and is not computed for this data.</source>
        <translation>モンテカルロ推定値 (位置の同時状態が多すぎて列挙できません)。全 %1 ステップの負の ELBO: %2 nat。DP はすべてのステップの組を必要とするため、このデータでは計算しません。</translation>
    </message>
    <message>
        <source>Negative ELBO (nats): even %1 steps %2 · DP %1 steps %3 · all %4 steps %5</source>
        <translation>負の ELBO (nat): 等間隔 %1 ステップ %2 · DP %1 ステップ %3 · 全 %4 ステップ %5</translation>
    </message>
    <message>
        <source>
Every path costs the same here: with one position and the exact denoiser the reverse chain is exact (Help ▸ Mathematics: categorical.md#degenerate-case).</source>
        <translation>
ここではどの経路もコストが同じです: 位置が 1 つで厳密なデノイザなら、逆過程の連鎖は厳密です (ヘルプ ▸ 数学的背景: categorical.md#degenerate-case)。</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>nat</translation>
    </message>
    <message>
        <source>
Masked diffusion: no continuous-time ELBO (%1)</source>
        <translation>
マスク拡散: 連続時間の ELBO なし (%1)</translation>
    </message>
    <message>
        <source>
The even path is already optimal here: the DP finds none cheaper.</source>
        <translation>
等間隔の経路がすでに最適です: DP はこれより安い経路を見つけません。</translation>
    </message>
</context>
<context>
    <name>ui::views::TrajectoryCanvas</name>
    <message>
        <source>Estimating Γ…</source>
        <translation>Γ を推定しています…</translation>
    </message>
    <message>
        <source>starts at n = %1 &gt; 1</source>
        <translation>n = %1 &gt; 1 から開始</translation>
    </message>
    <message>
        <source>ends at n = %1 &lt; N</source>
        <translation>n = %1 &lt; N で終了</translation>
    </message>
    <message>
        <source>t → 1 to %1   (white: s ≥ t)</source>
        <translation>t → 1 から %1   (白: s ≥ t)</translation>
    </message>
</context>
<context>
    <name>ui::views::VarianceView</name>
    <message>
        <source>analytic σ²ₛ|ₜ</source>
        <translation>解析的 σ²ₛ|ₜ</translation>
    </message>
    <message>
        <source>bounds (Theorem 2)</source>
        <translation>上下界 (定理 2)</translation>
    </message>
    <message>
        <source>DDPM β̃ₛ|ₜ</source>
        <translation>DDPM β̃ₛ|ₜ</translation>
    </message>
    <message>
        <source>DDPM βₜ|ₛ</source>
        <translation>DDPM βₜ|ₛ</translation>
    </message>
    <message>
        <source>clipped to a bound</source>
        <translation>上下界でクリップ</translation>
    </message>
    <message>
        <source>timestep t of the pair (s, t), log scale</source>
        <translation>組 (s, t) の時刻 t (対数目盛)</translation>
    </message>
    <message>
        <source>σ² of every reverse step on the trajectory (Help ▸ Mathematics: gaussian.md#optimal-variance): it always lies between λ² and the tighter upper bound; the DDPM choices are drawn for comparison.</source>
        <translation>軌跡上の各逆過程ステップの σ² (ヘルプ ▸ 数学的背景: gaussian.md#optimal-variance)。常に λ² とより厳しい上界の間にあります。比較のため DDPM の選択も描いています。</translation>
    </message>
    <message>
        <source>%1 trajectory, %2 reverse steps; %3 clipped to a bound.</source>
        <translation>%1 軌跡、逆過程 %2 ステップ、うち %3 個を上下界でクリップ。</translation>
    </message>
    <message>
        <source> Note: </source>
        <translation> 注: </translation>
    </message>
    <message>
        <source>variance</source>
        <translation>分散</translation>
    </message>
</context>
<context>
    <name>ui::views::ChainText</name>
    <message>
        <source>unmasked at step</source>
        <translation>マスクを外したステップ</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>Enlarge the view to read the text.</source>
        <translation>テキストを読むにはビューを広げてください。</translation>
    </message>
    <message>
        <source>%1, after step %2 of %3</source>
        <translation>%1、ステップ %2 / %3 の後</translation>
    </message>
</context>
</TS>
