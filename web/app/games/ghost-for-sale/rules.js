// The rules page for players (HTML strings), in both languages.

export const rules = {
  ja: `
<h2>ゴースト売ります</h2>
<p>3〜5人・約40分・8歳から。幽霊が出るという館と城を競り落とすブラフのゲームです。館・城の価値は、実際に目撃された幽霊の数で決まります。</p>
<h3>準備</h3>
<ul>
<li>各プレイヤーは賭け金カード12枚(1,2,3,3,4,5,6,7,8,8,9,10)、宣言トークン(幽霊2個・絵画2個・両面:3人なら3個、4人なら2個、5人なら1個)、真実カードと嘘カードを1枚ずつ持ちます。</li>
<li>賭け金カードのうち4枚をキャラクターカードの下に裏向きに隠します。この4枚は1ラウンド目には使えず、2ラウンド目の城のオークションで手札に加わります。</li>
<li>賭け金カードの裏には低額マークか高額マークがあります。ただし「1」の裏は高額マーク、「10」の裏は低額マークです。</li>
</ul>
<h3>1ラウンド(館)・2ラウンド(城)の流れ</h3>
<ol>
<li><b>真実か嘘か</b>:全員が真実カードか嘘カードを選んで裏向きに伏せます。</li>
<li><b>宣言</b>:最初のプレイヤーから時計回りに、宣言トークンを1個ずつ好きな館に置きます。「幽霊」は「幽霊を見た」、「絵画」は「絵画しかなかった」という宣言です。両面トークンはどちらの面を上にしてもかまいません。嘘カードを伏せたプレイヤーの宣言はすべて逆の意味になります。</li>
<li><b>情報を得るオークション</b>:ミセス・トゥルーライト(他のプレイヤーの「?」カードを見る)と「?」カードの山(使われなかった「?」カードを見る。3人プレイでは無し)を競ります。自分のターンには賭け金カードを1枚か2枚、裏向きで(裏のマークは全員に見えます)どちらか、または両方に置くか、パスします。パスしたらそのオークションには戻れません。ミセス・トゥルーライトに1枚も置いていないとパスできません。
<br>順位は合計額、同額なら一番高いカード、それも同じならそのカードを先に出した方が上。ミセス・トゥルーライトでは1位が2位の、2位が3位の…「?」カードを見て、その色の虫眼鏡トークンを受け取ります。最下位は誰も見られませんが賭け金を戻します。「?」カードの山では最高額のプレイヤーが山を見て支払い、他は戻します。</li>
<li><b>館のオークション</b>:同じやり方で、1ターンに1枚か2枚の賭け金カードを1つか2つの館に置くかパスします。全員がパスするか、賭け金カードを持っているのが1人だけになったら終了(その1人は最後に1枚だけ置けます)。館はアルファベット順に処理し、最高額のプレイヤーが支払って獲得、他は戻します。</li>
<li><b>得点</b>:全員の「?」カードを表にします。館の幽霊の数=真実カードのプレイヤーの「幽霊」トークン+嘘カードのプレイヤーの「絵画」トークン。館ごとの得点表で得点になります(幽霊0体や5体以上は0点)。</li>
</ol>
<p>2ラウンド目は城で同じように行います。最初のプレイヤーは、アルファベット順で最初の獲得された館の持ち主です。手札は1ラウンド目の残りと隠しておいた4枚です。</p>
<h3>ゲームの終了</h3>
<p>最も得点の多いプレイヤーの勝ち。同点なら獲得した城の数が少ない方、それも同じなら手札の賭け金カードの合計が高い方の勝ちです。</p>
<h3>上級バリアントルール(スペシャルカード)</h3>
<p>各館(2ラウンド目は各城)にスペシャルカードを1枚ずつ表向きに置きます。</p>
<ul>
<li><b>暗すぎる</b>:「絵画」面が上のトークンしか置けない。</li>
<li><b>古来からの伝説</b>:「幽霊」面が上のトークンしか置けない。</li>
<li><b>公開オークション</b>:賭け金カードは表向きで置かれる。</li>
<li><b>魔法の鏡</b>:競り落としたプレイヤーは「幽霊」トークンを1つ取り除いてもよい。</li>
<li><b>秘密の墓所</b>:競り落としたプレイヤーは幽霊を1体追加してもよい。</li>
<li><b>水晶玉</b>:競り落としたプレイヤーが幽霊の数を予想し、当たればこのカードを受け取る(2点)。</li>
<li><b>家族の肖像画</b>:最後の得点計算で、獲得した0点の館・城1つにつき1点。</li>
<li><b>全く以て普通</b>:普通の館(城)。</li>
</ul>
<h3>この画面での遊び方</h3>
<p>手札のカードやトークン、館、ミセス・トゥルーライトを直接クリックして選びます(キーボードでも操作できます)。</p>
<ul>
<li>賭け金カードを隠す・「?」カードを伏せる:カードを選んで「キャラクターカードの下に隠す」「伏せて置く」。</li>
<li>宣言:自分の宣言トークンを選び、置く館(城)をクリック。</li>
<li>オークション:置く場所(ミセス・トゥルーライト、「?」カード、館)→手札のカード、の順にクリック。2枚目も同じように置くか「ターン終了」。</li>
</ul>
<p>ボタンを押して送るまでは「戻す」で1手ずつ取り消せます。他のプレイヤーが何を選んだかは見えず、選び終えたかどうかだけが表示されます。館・城の名前と得点表、カードの裏のマークの内訳は本サイトの既定値です。</p>`,
  en: `
<h2>Ghost for Sale</h2>
<p>3–5 players, about 40 minutes, age 8+. A bluffing game of auctions for haunted manors and castles. A property is worth what its ghosts make it worth — if anyone really saw them.</p>
<h3>Setup</h3>
<ul>
<li>Each player has 12 bidding cards (1, 2, 3, 3, 4, 5, 6, 7, 8, 8, 9, 10), declaration tokens (2 ghost, 2 painting and double-faced ones: 3 with 3 players, 2 with 4, 1 with 5), a truth card and a lie card.</li>
<li>Everyone secretly hides 4 bidding cards under their character card: they cannot be used in round 1 and join the hand for the castle auction of round 2.</li>
<li>Every bidding card shows a low or a high mark on its back — but the 1 shows the high mark and the 10 the low one.</li>
</ul>
<h3>A round (round 1 the manors, round 2 the castles)</h3>
<ol>
<li><b>Truth or lie.</b> Everyone plays the truth or the lie card face down.</li>
<li><b>Declarations.</b> From the first player clockwise, one token a turn onto any property. A ghost says "I saw a ghost here", a painting "no ghost, only a painting". A double-faced token goes down on the face you choose. Every token of a player who played the lie card means the opposite.</li>
<li><b>Information auction</b> for Mrs. Truelight (look at another player's "?" card) and the "?" pile (look at the unused "?" cards; not with 3 players). On your turn place 1 or 2 bidding cards face down (their back marks show) on one or both, or pass — for the rest of the auction. You may not pass before bidding on Mrs. Truelight.
<br>Ranking: total, then highest card, then who played that card first. On Mrs. Truelight the 1st looks at the 2nd's "?" card, the 2nd at the 3rd's, and so on (taking their magnifying glasses); the last looks at no one but takes its cards back. On the pile the best bidder looks and pays; the others take their cards back.</li>
<li><b>Property auction</b>, the same way: 1 or 2 cards on 1 or 2 properties, or pass. It ends when everyone has passed or only one player still holds cards (who may play one last card). In alphabetical order, each property's best bidder pays and takes it; the others take their cards back.</li>
<li><b>Scoring.</b> All "?" cards are revealed. A property's ghosts are the ghost tokens of truth-tellers plus the painting tokens of liars, and it scores by its own table (0 ghosts or 5 or more: nothing).</li>
</ol>
<p>Round 2 is the same with the castles. Its first player is the owner of the first bought manor in alphabetical order. Your hand is what is left plus the 4 hidden cards.</p>
<h3>End</h3>
<p>Most points wins. Tied: fewer castles wins; still tied: the higher total of bidding cards in hand.</p>
<h3>Advanced variant: special cards</h3>
<p>One special card lies face up on each manor (and in round 2 on each castle).</p>
<ul>
<li><b>Too dark</b>: only painting-face tokens may be declared there.</li>
<li><b>Ancient legend</b>: only ghost-face tokens may be declared there.</li>
<li><b>Open auction</b>: bids on it are placed face up.</li>
<li><b>Magic mirror</b>: its buyer may remove one ghost-face token.</li>
<li><b>Secret crypt</b>: its buyer may add one ghost.</li>
<li><b>Crystal ball</b>: its buyer guesses how many ghosts it really has; right, the buyer keeps the card (2 points).</li>
<li><b>Family portrait</b>: its buyer scores 1 point per bought property worth 0 at the end.</li>
<li><b>Perfectly normal</b>: a normal property.</li>
</ul>
<h3>Playing here</h3>
<p>Click the cards in your hand, your tokens, the properties and Mrs. Truelight themselves (the keyboard works too).</p>
<ul>
<li>Hiding cards and the "?" card: pick the cards, then "Hide them under my character card" or "Play it face down".</li>
<li>Declarations: pick one of your tokens, then the property to put it on.</li>
<li>Auctions: click where the card goes (Mrs. Truelight, the "?" pile, a property), then the card in your hand; place a second one the same way or "End turn".</li>
</ul>
<p>Until a button sends it, Undo takes your turn back one click at a time. Of the others you see whether they have chosen, never what. The property names, their score tables and which cards show which back mark are this site's defaults.</p>`,
};
