// The rules page for players (HTML strings), in both languages.
export const rules = {
  ja: `
<p>自分のお化け屋敷を<strong>1階から3階へ</strong>と探検し、すべての部屋（各階2部屋、計6部屋）を埋めて<strong>最初に脱出した人の勝ち</strong>です。相手の家にはゴーストを送り込んで足止めし、自分の家はネコと電気で守ります。</p>
<h3>準備</h3>
<p>全員が同じお化け屋敷（暗い面を上にしたフロアカード3枚と屋根）を持ちます。カードをシャッフルし、各プレイヤーに3枚ずつ配ります。</p>
<h3>カード</h3>
<ul>
<li><strong>部屋カード</strong>（1階12枚・2階10枚・3階10枚）：左下に印刷された階にだけ置けます。電球アイコン（0〜3個）が描かれています。</li>
<li><strong>ゴースト</strong>（8枚）と<strong>ネコ</strong>（6枚）。</li>
<li><strong>特殊カード</strong>（7枚、オプション）：時空の穴・電球・キャットフード・エレベーター・雷・部屋ワイルドカード2枚。</li>
</ul>
<h3>手番</h3>
<p>手番では次のうち<strong>1つ</strong>を行います。</p>
<ol>
<li><strong>部屋カードを1枚以上出す</strong>：下の階がすべて埋まっている階の空きスペースへ。同じ手番で複数枚を出せます（例：1階を2枚、続けて2階を1枚）。</li>
<li><strong>ゴーストを1枚出す</strong>：相手の家の、部屋カードがある最上階へ（ゴーストがいる階には出せません）。その階にネコがいれば、ゴーストとネコは捨て札に。いなければ相手は手札のネコを捨てて防御できます。防御されなければ、<em>暗い階</em>ではその階の部屋カードがゴーストと一緒に捨てられます。<em>電気が点いた階</em>ではゴーストは留まり、2体目が来ると部屋とゴーストが捨てられ電気が消えます。</li>
<li><strong>ネコを1枚出す</strong>：自分の家の探索済みの部屋へ（ネコの上には置けません）。ゴーストのいる階なら、ネコとゴーストが捨て札になります。それ以外はネコが留まり、その階を守ります。</li>
<li><strong>電気をつける</strong>：電球アイコンが合計5個以上になるよう部屋カード2〜3枚を表向きに捨て、下の階がすべて埋まっている自分の階の電気をつけます（1階はいつでも可）。2枚で5個に届くなら、3枚目は電球0個のカードに限ります。</li>
<li><strong>特殊カードを1枚出す</strong>（オプション）。</li>
<li><strong>カードを1枚以上捨てる</strong>：伏せて捨て、同じ枚数を山札から引きます。何を捨てたかは秘密です。</li>
</ol>
<p>手番の終わりに、家がまだ探索し尽くされていなければ手札を3枚まで補充します。山札が尽きたら捨て札をシャッフルして山札にします。</p>
<h3>脱出</h3>
<p>手番の終わりに家のすべての部屋が埋まっていたら（電気が消えていても）、補充はせず<strong>脱出</strong>を試みます。他の各プレイヤーは順番にゴーストを1体出して阻止できます（2人プレイでは相手が最大2体）。脱出する人はネコで防御できます。阻止されたら、脱出しようとした人から順に全員が手札を補充し、次の人から再開します。阻止されなければ、その人の勝ちです。</p>
<h3>特殊カード（オプション「特殊カード」）</h3>
<ul>
<li><strong>時空の穴</strong>：どの家（自分の家も）のゴーストでも、相手の家の部屋カードがある最上階へ移動させます。</li>
<li><strong>電球</strong>：下の階がすべて探索済みの自分の階の電気をつけます。</li>
<li><strong>キャットフード</strong>：相手の家のネコを自分の家へ移動させます。</li>
<li><strong>エレベーター</strong>：自分の家のネコを別の階へ移動させます。</li>
<li><strong>雷</strong>：相手の探索した最上階の電気を消します。</li>
<li><strong>部屋ワイルドカード</strong>：どの階の部屋としても出せます。他の部屋カードと一緒に出せます。</li>
</ul>
<p>初めてのゲームでは特殊カードを抜いて遊ぶのがおすすめです。</p>
<h3>この画面での遊び方</h3>
<p>手札のカードをクリックして選び、光っている場所（自分の家の空きスペース、電球、相手の家の階、ネコやゴースト）をクリックして出します。選んだカードはもう一度クリックするか「選択をやめる」で戻せます。</p>
<p class="muted">部屋カードの電球アイコンの枚数分布は資料にないため、takuge独自の設定です（1階：0個3枚・1個4枚・2個3枚・3個2枚、2階・3階：0個2枚・1個3枚・2個3枚・3個2枚）。</p>
`,
  en: `
<p>Explore your own haunted house <strong>from the 1st floor up to the 3rd</strong>: the first player whose six rooms (two per floor) are all explored, and who is not stopped while escaping, <strong>wins</strong>. Slow the others down with ghosts; protect your house with cats and lights.</p>
<h3>Setup</h3>
<p>Everyone has the same house: three floor cards, dark side up, under a roof. Shuffle the cards and deal 3 to each player.</p>
<h3>Cards</h3>
<ul>
<li><strong>Room cards</strong> (1st floor 12, 2nd 10, 3rd 10): a room goes only on the floor printed in its lower-left corner. Each shows 0–3 light-bulb icons.</li>
<li><strong>Ghosts</strong> (8) and <strong>cats</strong> (6).</li>
<li><strong>Special cards</strong> (7, optional): space-time hole, light bulb, cat food, elevator, lightning and two wild rooms.</li>
</ul>
<h3>Your turn</h3>
<p>Do <strong>one</strong> of:</p>
<ol>
<li><strong>Play room cards</strong>, one or more, onto free spaces of a floor whose lower floors are all full. Several in one turn is fine (two 1st-floor rooms, then a 2nd-floor room).</li>
<li><strong>Play a ghost</strong> at an opponent's highest floor with rooms (not on a floor that already has a ghost). A cat there: ghost and cat are discarded. Otherwise the opponent may discard a cat from hand to cancel it. If the ghost lands on a <em>dark</em> floor, that floor's rooms are discarded with the ghost. On a <em>lit</em> floor it stays — a second ghost there discards the rooms and both ghosts, and the light goes out.</li>
<li><strong>Play a cat</strong> on an explored room of your house (not on another cat). On a floor with a ghost, cat and ghost are discarded and the rooms stay; otherwise the cat stays and guards the floor.</li>
<li><strong>Turn on a light</strong>: discard 2 or 3 room cards face up with 5 or more light-bulb icons in total, and light a floor of yours whose lower floors are full (the 1st floor always). A third card is allowed only if two fall short — or if it shows no icon.</li>
<li><strong>Play a special card</strong> (with the option).</li>
<li><strong>Discard</strong> one or more cards face down and draw as many. What you discarded stays secret.</li>
</ol>
<p>At the end of your turn, unless your house is fully explored, refill your hand to 3 cards. When the deck runs out, the discard pile is shuffled into a new deck.</p>
<h3>Escape</h3>
<p>If your house is fully explored at the end of your turn (lit or not), you do not refill: you try to <strong>escape</strong>. Every other player in turn may play one ghost to stop you (in a 2-player game the opponent may play up to two); you may defend with cats as usual. If you are stopped, everyone refills to 3 — you first — and play goes on with the next player. If not, you win.</p>
<h3>Special cards (option “special cards”)</h3>
<ul>
<li><strong>Space-time hole</strong>: move a ghost from any house (yours too) to an opponent's highest floor with rooms.</li>
<li><strong>Light bulb</strong>: light a floor of yours whose lower floors are fully explored.</li>
<li><strong>Cat food</strong>: bring a cat from an opponent's house to yours.</li>
<li><strong>Elevator</strong>: move a cat of yours to another floor.</li>
<li><strong>Lightning</strong>: put out the light of an opponent's highest explored floor.</li>
<li><strong>Wild room</strong>: a room of any floor, playable together with other rooms.</li>
</ul>
<p>For a first game, leave the special cards out.</p>
<h3>Playing here</h3>
<p>Click cards in your hand to pick them, then click the glowing place on the table where they go: a free space of your house, a lamp, an opponent's floor, a cat or a ghost. Click a picked card again, or “Clear selection”, to take it back.</p>
<p class="muted">The source does not give how many light-bulb icons each room card shows; takuge uses its own distribution (1st floor: 3 cards with 0, 4 with 1, 3 with 2, 2 with 3; 2nd and 3rd floors: 2 with 0, 3 with 1, 3 with 2, 2 with 3).</p>
`,
};
