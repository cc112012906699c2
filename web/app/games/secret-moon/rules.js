// The rules page for players, from the rules document (seeds/002, its newer version) and
// the project's decisions where it is silent (docs/games/secret-moon.md).
export const rules = {
  ja: `<div class="sm-rules">
<h2>シークレットムーン — 遊び方</h2>
<p>「姫」「旅人」「僧侶」の<strong>姫チーム</strong>と、「大臣」「兵士」の<strong>大臣チーム</strong>に分かれる正体隠匿ゲームです。誰が何者かは最初は隠されています。3〜8人。</p>
<h3>準備</h3>
<ul>
<li>人物カード8枚(姫・旅人・大臣・僧侶 各1枚、兵士4枚)をシャッフルし、各プレイヤーに1枚ずつ秘密裏に配ります。残りは中央に置かれ、NPC(中立プレイヤー)になります。NPCは行動しません。</li>
<li>5人プレイでは、先に兵士4枚と僧侶1枚から1枚を見ずに取り除きます。</li>
<li>「姫」と「旅人」が配られたプレイヤー同士は、お互いの役割を知っています。</li>
</ul>
<h3>勝利条件</h3>
<ul>
<li><strong>姫チーム</strong>: 第3ラウンド終了まで姫が捕獲されず、姫・旅人の両方が公開されない/大臣が捕獲される。</li>
<li><strong>大臣チーム</strong>: 姫と旅人の両方が公開される/姫が捕獲される。</li>
</ul>
<p>どれかの条件が満たされると、そのゲームは即座に終わります。勝ったチームの全員(途中で捕獲されていても)が1勝利点を得ます。1・3・5ゲームのマッチで、最も勝利点の多いプレイヤーが勝者です。</p>
<h3>ラウンドの流れ(1ゲーム=3ラウンド)</h3>
<ol>
<li>行動順カードが各プレイヤーに1枚ずつ配られます(数字は本人だけが知っています)。残りは裏向きで捨て札山へ。</li>
<li>数字の小さい順に手番を行い、次の7つのアクションから1つを実行します。終わったら行動順カードを捨て札山へ。</li>
<li>全員が手番を終えたらラウンド終了です。</li>
</ol>
<h3>アクション</h3>
<dl>
<dt>観察</dt><dd>他プレイヤーか中央の人物カード1枚を秘密裏に確認します。あなたの色の「目」のマーカーが置かれ、誰が見たかは全員に分かります。</dd>
<dt>質問</dt><dd>他プレイヤー1人に「そこにいるのは何者か?」と聞きます。姫・旅人は何もしゃべらず(赤のマーカー)、大臣は「バカもん!わしは大臣じゃ!」、僧侶・兵士は「やぁ、ご同輩!」と答えます(青のマーカー)。</dd>
<dt>指名</dt><dd>他プレイヤーか中央のカード1枚の役割を宣言します。当たればそのカードが公開、外れれば自分のカードが公開されます。中央のカードを指名したときは、先にそのカードを秘密裏に見ます。</dd>
<dt>隠れる/かばう</dt><dd>自分・他プレイヤー・NPCの1枚を守ります。ラウンド終了まで、どのアクションの対象にもなりません(カードは横向き)。第3ラウンドには使えません。</dd>
<dt>妨害</dt><dd>行動順カードを持っている他プレイヤー1人に、そのカードを捨てさせます。まだ手番前ならそのラウンドの手番を失います。妨害した人は公開され、捕獲されます。</dd>
<dt>捕獲</dt><dd>指名によって公開された人物カード1枚の持ち主を捕獲します。兵士は使えません(盗賊だけは捕獲できます)。姫を捕獲できるのは大臣だけです。</dd>
<dt>パス</dt><dd>何もしない代わりに、捨て札山から次ラウンドの行動順カードを1枚自由に選んで確保します(全員に公開、横向き)。第3ラウンドでは何も取りません。</dd>
</dl>
<h3>捕獲</h3>
<p>捕獲された人物カードは公開され(上下逆向き)、そのプレイヤーはゲーム終了まで手番を行えません。兵士は公開されると同時に捕獲されます。</p>
<h3>オプション</h3>
<ul>
<li><strong>3ゲームマッチ/5ゲームマッチ</strong>: 規定回数のゲームを行い、合計の勝利点で競います。ゲームごとに人物カードは配り直されます。</li>
<li><strong>追加カード:盗賊</strong>(6人以上、8人推奨): どちらのチームにも属さない第3勢力。どちらかのチームが勝ったとき盗賊が捕獲されていなければ、その勝利は無効になり、盗賊のプレイヤーだけが1勝利点を得ます(NPCの盗賊は勝利を奪いません)。盗賊は隠れる/かばうと捕獲ができません。質問されると「…」か「バカもん!わしは大臣じゃ!」を選んで答えます。6人では盗賊・僧侶・兵士4枚から1枚を取り除きます。</li>
</ul>
<h3>この画面での遊び方</h3>
<p>手番では、テーブルの人物カードかアクションのボタンを選びます(どちらからでも)。指名では続けて役割を選びます。送る前なら「戻る」で取り消せます。選べないものは表示されません。あなたにしか見えないカードには「あなた」「確認済み」などの札が付きます。</p>
</div>`,
  en: `<div class="sm-rules">
<h2>Secret Moon — how to play</h2>
<p>A hidden-role game for 3–8 players. The <strong>princess team</strong> (princess, traveller, monk) and the <strong>minister team</strong> (minister, soldiers) hunt each other in a dark castle garden; at first nobody knows who is who.</p>
<h3>Setup</h3>
<ul>
<li>Shuffle the eight character cards (princess, traveller, minister, monk, four soldiers) and deal one face down to each player. The rest lie in the centre as NPC cards; NPCs never act.</li>
<li>With 5 players, first set one card of the four soldiers and the monk aside, unseen.</li>
<li>The princess and the traveller, if both are players, know each other.</li>
</ul>
<h3>Winning</h3>
<ul>
<li><strong>Princess team</strong>: the princess is not captured and the princess and traveller are not both revealed by the end of round 3 — or the minister is captured.</li>
<li><strong>Minister team</strong>: the princess and the traveller are both revealed — or the princess is captured.</li>
</ul>
<p>The game ends the moment one of these happens. Every player of the winning team scores 1 victory point, even if captured. A match is 1, 3 or 5 games; the most victory points wins.</p>
<h3>A round (three per game)</h3>
<ol>
<li>Each player is dealt an action-order card; only its holder knows the number. Spare cards go face down to the discard pile.</li>
<li>From the lowest number up, each player takes one of the seven actions, then discards the order card.</li>
<li>When everyone has acted, the round ends.</li>
</ol>
<h3>Actions</h3>
<dl>
<dt>Observe</dt><dd>Look in secret at another player's card or a centre card. Your eye marker goes on it, so everyone sees who looked.</dd>
<dt>Question</dt><dd>Ask another player “Who goes there?”. The princess and traveller stay silent (red marker); the minister answers “Fool! I am the minister!”; the monk and soldiers answer “Hello, comrade!” (blue markers).</dd>
<dt>Nominate</dt><dd>Name the role of another player's card or a centre card. Right: that card is revealed. Wrong: your own card is revealed. Naming a centre card, you look at it in secret first.</dd>
<dt>Hide / protect</dt><dd>Protect yourself, another player or an NPC card: it cannot be targeted until the round ends (the card turns sideways). Not in round 3.</dd>
<dt>Sabotage</dt><dd>Another player holding an order card discards it; if they have not acted yet they lose their turn. You are revealed and captured.</dd>
<dt>Capture</dt><dd>Capture the holder of a card revealed by a nomination. Soldiers cannot capture (except the thief); only the minister can capture the princess.</dd>
<dt>Pass</dt><dd>Do nothing, and take any card from the discard pile as your order card for the next round (shown to all, sideways). In round 3 nothing is taken.</dd>
</dl>
<h3>Capture</h3>
<p>A captured card is face up (upside down) and its player takes no more turns this game. A soldier is captured as soon as it is revealed.</p>
<h3>Variants</h3>
<ul>
<li><strong>3- or 5-game match</strong>: play that many games, dealt afresh each time, and add up victory points.</li>
<li><strong>The thief</strong> (6+ players, 8 recommended): a third party. When either team wins and the thief is not captured, that win is void and only the thief's player scores (an NPC thief steals nothing). The thief cannot hide/protect or capture, and when questioned chooses to stay silent or claim to be the minister. With 6 players one of thief, monk and the four soldiers is set aside first.</li>
</ul>
<h3>Playing on this screen</h3>
<p>On your turn click a character card on the table or an action button (either first); a nomination then asks for the role. “Back” undoes a step before anything is sent. Only legal choices are offered. Cards only you can see carry a tag such as “You” or “Seen”.</p>
</div>`,
};
