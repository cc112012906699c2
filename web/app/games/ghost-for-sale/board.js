// Ghost for Sale (ゴースト売ります): the table as players lay it out — the six manors (or
// castles) in alphabetical order with their declaration tokens and bids, Mrs. Truelight and
// the "?" pile beside them, and every player's character card with its "?" card, tokens,
// bidding cards and bought properties.
//
// Turns that the game splits into several actions are built locally first (ctx.draft) and
// only then sent, one action after another, through a small queue: each action is sent from
// the render that shows the state it is legal in, so it always carries the current version.
import { h } from '../../dom.js';

const GAME = 'ghost-for-sale';

// ---------------------------------------------------------------------------------------
// Vocabulary. Japanese from the rules document (000 ghost-for-sale).

const messages = {
  ja: {
    // The manors' and castles' names in katakana (data/properties.toml names them in
    // Latin letters: 「Algernon館」 read badly in Japanese, issue 21).
    'gfs.n.Algernon': 'アルジャーノン',
    'gfs.n.Blackwood': 'ブラックウッド',
    'gfs.n.Culzean': 'カルジアン',
    'gfs.n.Dunmore': 'ダンモア',
    'gfs.n.Everleigh': 'エバーリー',
    'gfs.n.Fairholme': 'フェアホルム',
    'gfs.n.Bolsover': 'ボルソーヴァー',
    'gfs.n.Carrick': 'キャリック',
    'gfs.n.Dunvegan': 'ダンヴェガン',
    'gfs.n.Glenmoor': 'グレンムーア',
    'gfs.n.Leap': 'リープ',
    'gfs.n.Ravensworth': 'レイヴンズワース',
    'gfs.round1': '1ラウンド:館のオークション',
    'gfs.round2': '2ラウンド:城のオークション',
    'gfs.step.set_aside': 'セットアップ:賭け金カードを隠す',
    'gfs.step.truth_or_lie': '①真実か嘘か',
    'gfs.step.declarations': '②宣言',
    'gfs.step.information_auction': '③情報を得るオークション',
    'gfs.step.property_auction.1': '④館のオークション',
    'gfs.step.property_auction.2': '④城のオークション',
    'gfs.step.special_card': 'スペシャルカード',
    'gfs.step.game_over': 'ゲームの終了',
    'gfs.manor': '館',
    'gfs.castle': '城',
    'gfs.propName': '{name}{kind}',
    'gfs.truelight': 'ミセス・トゥルーライト',
    'gfs.truelightHint': '他のプレイヤーの「?」カードを見る',
    'gfs.pile': '「?」カード',
    'gfs.pileHint': '使われなかった「?」カードの山を見る',
    'gfs.noPile': '3人プレイでは「?」カードのオークションはありません',
    'gfs.truth': '真実',
    'gfs.lie': '嘘',
    'gfs.truthCard': '真実カード',
    'gfs.lieCard': '嘘カード',
    'gfs.qcard': '「?」カード',
    'gfs.ghost': '幽霊',
    'gfs.painting': '絵画',
    'gfs.double': '両面',
    'gfs.doubleGhost': '両面(幽霊を上)',
    'gfs.doublePainting': '両面(絵画を上)',
    'gfs.tokens': '宣言トークン',
    'gfs.hand': '賭け金カード',
    'gfs.handCount': '賭け金カード {n}枚',
    'gfs.setAside': 'キャラクターカードの下',
    'gfs.setAsideCount': '2ラウンド用に隠した賭け金カード {n}枚',
    'gfs.low': '低額',
    'gfs.high': '高額',
    'gfs.lowMark': '低額マーク',
    'gfs.highMark': '高額マーク',
    'gfs.back': '裏:{mark}',
    'gfs.magnifier': '虫眼鏡トークン',
    'gfs.looked': '{name}の「?」カードを見た',
    'gfs.lookedSeen': '{name}の「?」カード:{card}',
    'gfs.pileSeen': '「?」カードの山を見た',
    'gfs.pileCounts': '山:真実{truth}枚・嘘{lie}枚',
    'gfs.rank': '{n}位',
    'gfs.lastTakesBack': '最下位は賭け金カードを戻す',
    'gfs.passed': 'パス',
    'gfs.pass': 'パスする',
    'gfs.firstPlayer': '最初のプレイヤー',
    'gfs.firstShort': '最初',
    'gfs.score': '{n}点',
    'gfs.points': '得点',
    'gfs.ghostsSeen': '目撃された幽霊',
    'gfs.ghostsN': '幽霊{n}体',
    'gfs.owner': '{name}が獲得',
    'gfs.boxed': '入札なし(箱へ)',
    'gfs.you': 'あなた',
    'gfs.spare': '余ったスペシャルカード',
    'gfs.special': 'スペシャルカード',
    'gfs.paid': '箱に戻した賭け金',
    'gfs.owned': '獲得した館・城',
    'gfs.character': 'キャラクターカード',
    'gfs.history': '1ラウンドの館',
    'gfs.undo': '戻す',
    'gfs.confirm': '決定',
    'gfs.sending': '送信中…',
    'gfs.endTurn': 'ターン終了',
    'gfs.placeCards': 'この賭け金カードを置く',
    'gfs.setAsideConfirm': 'キャラクターカードの下に隠す',
    'gfs.playQ': '伏せて置く',
    'gfs.decline': '使わない',
    'gfs.addGhost': '幽霊を1体追加する',
    'gfs.removeGhostOf': '{name}の幽霊トークンを取り除く',
    'gfs.guess': '幽霊は{n}体',
    'gfs.crystalGuess': '水晶玉の予想:{n}体',
    'gfs.mirrorRemoved': '魔法の鏡:{name}の幽霊トークンを除いた',
    'gfs.cryptAdded': '秘密の墓所:幽霊を1体追加',
    'gfs.crystalBall': '水晶玉(2点)',
    'gfs.familyPortrait': '家族の肖像画',
    'gfs.hint.setAside': '2ラウンド目の城のオークションのために、賭け金カードをあと{n}枚選んでキャラクターカードの下に隠してください。',
    'gfs.hint.setAsideReady': '選んだカードを隠しますか?',
    'gfs.hint.choose': '「真実」か「嘘」のカードを選んで、裏向きに伏せてください。',
    'gfs.hint.chooseReady': 'このカードを伏せますか?',
    'gfs.hint.declare': '宣言トークンを1個選んでください。',
    'gfs.hint.declareWhere': 'トークンを置く{kind}を選んでください。',
    'gfs.hint.bid': '賭け金カードを置く場所を選ぶか、パスしてください(1ターンに1枚か2枚)。',
    'gfs.hint.bidNoPass': '賭け金カードを置く場所を選んでください。ミセス・トゥルーライトに賭けるまではパスできません。',
    'gfs.hint.card': '{target}に置く賭け金カードを手札から選んでください。',
    'gfs.hint.second': 'もう1枚置く場所を選ぶか、ターンを終了してください。',
    'gfs.hint.ready': 'この賭け金カードを置きますか?',
    'gfs.hint.lastCard': '賭け金カードを持っているのはあなただけです。最後に1枚だけ置けます。',
    'gfs.hint.mirror': '魔法の鏡:{prop}の幽霊トークンを1つ取り除けます(持ち主を選ぶ)。',
    'gfs.hint.crypt': '秘密の墓所:{prop}に幽霊を1体追加できます。',
    'gfs.hint.crystal': '水晶玉:{prop}に実際にいる幽霊の数を予想してください。当たれば2点。',
    'gfs.hint.wait': '{names}を待っています。',
    'gfs.hint.waitSecret': '{names}が選んでいます(何を選んだかは見えません)。',
    'gfs.hint.over': 'ゲーム終了。',
    'gfs.chosen': '選択済み',
    'gfs.choosing': '選択中',
    'gfs.final': '最終得点',
    'gfs.winner': '勝者',
    'gfs.spent': '残りの賭け金合計 {n}',
    'gfs.opt.special': 'スペシャルカード(上級バリアント)',
    'gfs.opt.basic': '通常ルール',
    'gfs.opt.advanced': '上級バリアントルール(スペシャルカード)',
    'gfs.opt.first': '最初のプレイヤー(一番幽霊に見えるプレイヤー)',
    'gfs.opt.random': 'ランダム',
    'gfs.opt.seat': '{n}番目の席',
    'gfs.sp.too_dark': '暗すぎる',
    'gfs.sp.ancient_legend': '古来からの伝説',
    'gfs.sp.open_auction': '公開オークション',
    'gfs.sp.magic_mirror': '魔法の鏡',
    'gfs.sp.secret_crypt': '秘密の墓所',
    'gfs.sp.crystal_ball': '水晶玉',
    'gfs.sp.family_portrait': '家族の肖像画',
    'gfs.sp.perfectly_normal': '全く以て普通',
    'gfs.spd.too_dark': '「絵画」面が上のトークンしか置けない',
    'gfs.spd.ancient_legend': '「幽霊」面が上のトークンしか置けない',
    'gfs.spd.open_auction': '賭け金カードは表向きで置かれる',
    'gfs.spd.magic_mirror': '競り落としたプレイヤーは「幽霊」トークンを1つ取り除いてもよい',
    'gfs.spd.secret_crypt': '競り落としたプレイヤーは幽霊を1体追加してもよい',
    'gfs.spd.crystal_ball': '競り落としたプレイヤーは幽霊の数を予想し、当たれば2点',
    'gfs.spd.family_portrait': '最後に、獲得した0点の館・城1つにつき1点',
    'gfs.spd.perfectly_normal': '普通の館(城)',
    'gfs.ptsTable': '幽霊の数と得点',
  },
  en: {
    'gfs.n.Algernon': 'Algernon',
    'gfs.n.Blackwood': 'Blackwood',
    'gfs.n.Culzean': 'Culzean',
    'gfs.n.Dunmore': 'Dunmore',
    'gfs.n.Everleigh': 'Everleigh',
    'gfs.n.Fairholme': 'Fairholme',
    'gfs.n.Bolsover': 'Bolsover',
    'gfs.n.Carrick': 'Carrick',
    'gfs.n.Dunvegan': 'Dunvegan',
    'gfs.n.Glenmoor': 'Glenmoor',
    'gfs.n.Leap': 'Leap',
    'gfs.n.Ravensworth': 'Ravensworth',
    'gfs.round1': 'Round 1: the manor auction',
    'gfs.round2': 'Round 2: the castle auction',
    'gfs.step.set_aside': 'Setup: hide bidding cards',
    'gfs.step.truth_or_lie': '① Truth or lie',
    'gfs.step.declarations': '② Declarations',
    'gfs.step.information_auction': '③ Information auction',
    'gfs.step.property_auction.1': '④ Manor auction',
    'gfs.step.property_auction.2': '④ Castle auction',
    'gfs.step.special_card': 'Special card',
    'gfs.step.game_over': 'Game over',
    'gfs.manor': 'manor',
    'gfs.castle': 'castle',
    'gfs.propName': '{name}',
    'gfs.truelight': 'Mrs. Truelight',
    'gfs.truelightHint': "look at another player's \"?\" card",
    'gfs.pile': 'The "?" pile',
    'gfs.pileHint': 'look at the unused "?" cards',
    'gfs.noPile': 'No "?" pile auction with 3 players',
    'gfs.truth': 'Truth',
    'gfs.lie': 'Lie',
    'gfs.truthCard': 'Truth card',
    'gfs.lieCard': 'Lie card',
    'gfs.qcard': '"?" card',
    'gfs.ghost': 'Ghost',
    'gfs.painting': 'Painting',
    'gfs.double': 'Double-faced',
    'gfs.doubleGhost': 'Double-faced, ghost up',
    'gfs.doublePainting': 'Double-faced, painting up',
    'gfs.tokens': 'Declaration tokens',
    'gfs.hand': 'Bidding cards',
    'gfs.handCount': (p) => (Number(p.n) === 1 ? '1 bidding card' : `${p.n} bidding cards`),
    'gfs.setAside': 'Under the character card',
    'gfs.setAsideCount': (p) => (Number(p.n) === 1 ? '1 card hidden for round 2' : `${p.n} cards hidden for round 2`),
    'gfs.low': 'low',
    'gfs.high': 'high',
    'gfs.lowMark': 'low mark',
    'gfs.highMark': 'high mark',
    'gfs.back': 'back: {mark}',
    'gfs.magnifier': 'Magnifying glass',
    'gfs.looked': 'looked at {name}\'s "?" card',
    'gfs.lookedSeen': '{name}\'s "?" card: {card}',
    'gfs.pileSeen': 'looked at the "?" pile',
    'gfs.pileCounts': 'pile: {truth} truth, {lie} lie',
    'gfs.rank': '#{n}',
    'gfs.lastTakesBack': 'the last takes its cards back',
    'gfs.passed': 'Passed',
    'gfs.pass': 'Pass',
    'gfs.firstPlayer': 'First player',
    'gfs.firstShort': '1st',
    'gfs.score': (p) => (Number(p.n) === 1 ? '1 pt' : `${p.n} pts`),
    'gfs.points': 'Points',
    'gfs.ghostsSeen': 'Ghosts seen',
    'gfs.ghostsN': (p) => (Number(p.n) === 1 ? '1 ghost' : `${p.n} ghosts`),
    'gfs.owner': 'bought by {name}',
    'gfs.boxed': 'no bid (to the box)',
    'gfs.you': 'you',
    'gfs.spare': 'Spare special cards',
    'gfs.special': 'Special card',
    'gfs.paid': 'Paid to the box',
    'gfs.owned': 'Bought',
    'gfs.character': 'Character card',
    'gfs.history': 'Round 1 manors',
    'gfs.undo': 'Undo',
    'gfs.confirm': 'Confirm',
    'gfs.sending': 'Sending…',
    'gfs.endTurn': 'End turn',
    'gfs.placeCards': 'Place these cards',
    'gfs.setAsideConfirm': 'Hide them under my character card',
    'gfs.playQ': 'Play it face down',
    'gfs.decline': 'Do not use it',
    'gfs.addGhost': 'Add one ghost',
    'gfs.removeGhostOf': "Remove {name}'s ghost token",
    'gfs.guess': (p) => (Number(p.n) === 1 ? '1 ghost' : `${p.n} ghosts`),
    'gfs.crystalGuess': 'Crystal ball guess: {n}',
    'gfs.mirrorRemoved': "Magic mirror: {name}'s ghost token removed",
    'gfs.cryptAdded': 'Secret crypt: one ghost added',
    'gfs.crystalBall': 'Crystal ball (2 pts)',
    'gfs.familyPortrait': 'Family portrait',
    'gfs.hint.setAside': (p) =>
      `Choose ${Number(p.n) === 1 ? '1 more bidding card' : `${p.n} more bidding cards`} to hide under your character card for the castle auction of round 2.`,
    'gfs.hint.setAsideReady': 'Hide the chosen cards?',
    'gfs.hint.choose': 'Choose your truth or lie card and play it face down.',
    'gfs.hint.chooseReady': 'Play this card face down?',
    'gfs.hint.declare': 'Pick one of your declaration tokens.',
    'gfs.hint.declareWhere': 'Now pick the {kind} to put it on.',
    'gfs.hint.bid': 'Choose where to place a bidding card (1 or 2 a turn), or pass.',
    'gfs.hint.bidNoPass': 'Choose where to place a bidding card. You may not pass before you have bid on Mrs. Truelight.',
    'gfs.hint.card': 'Choose the bidding card from your hand to place on {target}.',
    'gfs.hint.second': 'Choose where to place a second card, or end your turn.',
    'gfs.hint.ready': 'Place these cards?',
    'gfs.hint.lastCard': 'Only you still hold bidding cards: you may place one last card.',
    'gfs.hint.mirror': 'Magic mirror: you may remove one ghost token from {prop} (choose whose).',
    'gfs.hint.crypt': 'Secret crypt: you may add one ghost to {prop}.',
    'gfs.hint.crystal': 'Crystal ball: guess how many ghosts {prop} really has. Right: 2 points.',
    'gfs.hint.wait': 'Waiting for {names}.',
    'gfs.hint.waitSecret': '{names} choosing (what they choose stays hidden).',
    'gfs.hint.over': 'The game is over.',
    'gfs.chosen': 'chosen',
    'gfs.choosing': 'choosing',
    'gfs.final': 'Final score',
    'gfs.winner': 'Winner',
    'gfs.spent': 'cards left worth {n}',
    'gfs.opt.special': 'Special cards (advanced variant)',
    'gfs.opt.basic': 'Basic game',
    'gfs.opt.advanced': 'Advanced variant (special cards)',
    'gfs.opt.first': 'First player (the one who looks most like a ghost)',
    'gfs.opt.random': 'Random',
    'gfs.opt.seat': 'Seat {n}',
    'gfs.sp.too_dark': 'Too dark',
    'gfs.sp.ancient_legend': 'Ancient legend',
    'gfs.sp.open_auction': 'Open auction',
    'gfs.sp.magic_mirror': 'Magic mirror',
    'gfs.sp.secret_crypt': 'Secret crypt',
    'gfs.sp.crystal_ball': 'Crystal ball',
    'gfs.sp.family_portrait': 'Family portrait',
    'gfs.sp.perfectly_normal': 'Perfectly normal',
    'gfs.spd.too_dark': 'only painting-face tokens may be declared here',
    'gfs.spd.ancient_legend': 'only ghost-face tokens may be declared here',
    'gfs.spd.open_auction': 'bids on it are placed face up',
    'gfs.spd.magic_mirror': 'its buyer may remove one ghost-face token',
    'gfs.spd.secret_crypt': 'its buyer may add one ghost',
    'gfs.spd.crystal_ball': 'its buyer guesses the ghosts; right, the card is worth 2 points',
    'gfs.spd.family_portrait': 'at the end, 1 point per bought property worth 0',
    'gfs.spd.perfectly_normal': 'a perfectly normal property',
    'gfs.ptsTable': 'Ghosts and points',
  },
};

// ---------------------------------------------------------------------------------------
// The rules page.

const rules = {
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

// ---------------------------------------------------------------------------------------
// Small helpers.


// Inline SVG from the constant markup below (never from the view), parsed once and cloned:
// the board is rebuilt on every state and parsing is most of the cost of an icon.
const parsed = new Map();

function svg(markup, cls) {
  let proto = parsed.get(markup);
  if (!proto) {
    proto = document.createElement('span');
    proto.setAttribute('aria-hidden', 'true');
    proto.innerHTML = markup;
    parsed.set(markup, proto);
  }
  const span = proto.cloneNode(true);
  span.className = 'gfs-ico' + (cls ? ' ' + cls : '');
  return span;
}

const ICON = {
  ghost:
    '<svg viewBox="0 0 24 24"><path d="M12 2.5C7.9 2.5 4.8 5.7 4.8 9.8V21l2.4-1.8 2.4 1.8 2.4-1.8 2.4 1.8 2.4-1.8 2.4 1.8V9.8c0-4.1-3.1-7.3-7.2-7.3z" fill="#fbfbff" stroke="#3b3355" stroke-width="1.2"/><ellipse cx="9.4" cy="10" rx="1.3" ry="1.8" fill="#2b2340"/><ellipse cx="14.6" cy="10" rx="1.3" ry="1.8" fill="#2b2340"/><ellipse cx="12" cy="14.2" rx="1.6" ry="1.1" fill="#2b2340"/></svg>',
  painting:
    '<svg viewBox="0 0 24 24"><rect x="2.5" y="4" width="19" height="16" rx="1" fill="#b8892f" stroke="#5b3d10" stroke-width="1"/><rect x="5" y="6.5" width="14" height="11" fill="#cfe6f5"/><circle cx="15.5" cy="9.3" r="1.5" fill="#f4c542"/><path d="M5 17.5l4.2-5.2 3 3.3 2-2.1 4.8 4z" fill="#4f8a4b"/></svg>',
  manor:
    '<svg viewBox="0 0 32 24"><path d="M2 12 L16 3 L30 12 V22 H2 Z" fill="#4a3e63" stroke="#1e1830" stroke-width="1"/><rect x="22" y="4" width="3" height="6" fill="#4a3e63" stroke="#1e1830" stroke-width="0.8"/><rect x="13.5" y="15" width="5" height="7" fill="#1e1830"/><rect x="6" y="13" width="4" height="4" fill="#f6d66b"/><rect x="22" y="13" width="4" height="4" fill="#f6d66b"/></svg>',
  castle:
    '<svg viewBox="0 0 32 24"><path d="M2 22 V7 h3 v2 h2 V7 h3 v5 h12 V7 h3 v2 h2 V7 h3 v15 Z" fill="#4f4a5e" stroke="#1e1830" stroke-width="1"/><path d="M13 12 V5 h2 v2 h2 V5 h2 v7" fill="#4f4a5e" stroke="#1e1830" stroke-width="0.8"/><path d="M13.5 22 v-5 a2.5 2.5 0 0 1 5 0 v5 z" fill="#1e1830"/><rect x="6" y="13" width="2" height="3" fill="#f6d66b"/><rect x="24" y="13" width="2" height="3" fill="#f6d66b"/></svg>',
  magnifier:
    '<svg viewBox="0 0 24 24"><circle cx="10" cy="10" r="6" fill="#d9efff" stroke="currentColor" stroke-width="2.4"/><path d="M14.5 14.5 L21 21" stroke="currentColor" stroke-width="3" stroke-linecap="round"/></svg>',
  lady:
    '<svg viewBox="0 0 48 48"><ellipse cx="24" cy="11" rx="14" ry="3.5" fill="#2b2340"/><path d="M16 11 q8 -10 16 0z" fill="#2b2340"/><circle cx="24" cy="17" r="6.5" fill="#f3d9c4"/><path d="M10 46 q2 -18 14 -20 q12 2 14 20z" fill="#6b3f7a"/><circle cx="21.8" cy="16.5" r="0.9" fill="#2b2340"/><circle cx="26.2" cy="16.5" r="0.9" fill="#2b2340"/><circle cx="36" cy="30" r="4.5" fill="#bfe4ff" stroke="#2b2340" stroke-width="1.6"/><path d="M33 33 l-4 5" stroke="#2b2340" stroke-width="2" stroke-linecap="round"/></svg>',
  qcard:
    '<svg viewBox="0 0 24 32"><rect x="1" y="1" width="22" height="30" rx="3" fill="#2e2645" stroke="#b9a6e8" stroke-width="1.5"/><text x="12" y="22" font-size="16" text-anchor="middle" fill="#e9e0ff" font-family="serif" font-weight="bold">?</text></svg>',
  low:
    '<svg viewBox="0 0 24 24"><ellipse cx="12" cy="15" rx="7" ry="3" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="12" cy="12" rx="7" ry="3" fill="#f3d77a" stroke="#7a5a12"/></svg>',
  high:
    '<svg viewBox="0 0 24 24"><ellipse cx="7" cy="18" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="7" cy="15.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="7" cy="13" rx="5" ry="2.2" fill="#f3d77a" stroke="#7a5a12"/><ellipse cx="17" cy="18" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="15.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="13" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="10.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="12" cy="8" rx="5" ry="2.2" fill="#f3d77a" stroke="#7a5a12"/></svg>',
};

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function targetKey(target) {
  if (target === 'truelight' || target === 'pile') return target;
  if (target && typeof target === 'object' && 'property' in target) return 'p' + target.property;
  return '?';
}

// The back marks, as data/properties.toml sets them (a printed fact of the cards, the same
// for everyone). Any bid the view shows with both value and mark overrides this, so a
// corrected data file shows through as soon as one such card has been seen.
const DEFAULT_LOW = new Set([2, 3, 4, 5, 10]);

function markTable(view) {
  const learned = new Map();
  for (const a of view.auctions || []) {
    for (const b of a.bids) if (b.value !== null && b.value !== undefined) learned.set(b.value, b.mark);
  }
  return (value) => learned.get(value) || (DEFAULT_LOW.has(value) ? 'low' : 'high');
}

function count(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

function removeOne(list, x) {
  const i = list.indexOf(x);
  if (i >= 0) list.splice(i, 1);
  return list;
}

// ---------------------------------------------------------------------------------------
// The send queue: a locally built turn becomes several actions, each sent when the state
// it is legal in has arrived. It lives outside ctx.draft because the draft is reset at every
// new version, which is exactly what each sent action makes.

const queue = { key: null, actions: [], busy: false };

function queueKey(ctx) {
  return `${location.pathname}#${ctx.you}`;
}

function enqueue(ctx, actions) {
  queue.key = queueKey(ctx);
  queue.actions = actions.slice();
  queue.busy = false;
  pump(ctx);
  ctx.rerender();
}

function pump(ctx) {
  if (queue.key !== queueKey(ctx)) {
    queue.actions = [];
    queue.busy = false;
    queue.key = queueKey(ctx);
    return;
  }
  if (queue.busy || queue.actions.length === 0 || ctx.replay) return;
  const next = queue.actions[0];
  const entry = (ctx.legal || []).find((l) => same(l.action, next));
  if (!entry) {
    // The table moved on (or the turn was taken over): the rest of the plan is void.
    queue.actions = [];
    return;
  }
  queue.actions.shift();
  queue.busy = true;
  const done = () => {
    queue.busy = false;
    ctx.rerender();
  };
  Promise.resolve(ctx.send(entry.action)).then(done, () => {
    queue.actions = [];
    done();
  });
}

function sending(ctx) {
  return queue.key === queueKey(ctx) && (queue.busy || queue.actions.length > 0);
}

// Simultaneous secret choices (setting cards aside, truth or lie) are kept across versions:
// other seats' choices bump the version while this player is still picking.
const picks = new Map();

function pickState(ctx, kind) {
  const v = ctx.view;
  const key = `${location.pathname}#${ctx.you}#${v.round}#${kind}`;
  let p = picks.get(key);
  if (!p) {
    p = { values: [], card: null };
    picks.set(key, p);
  }
  return p;
}

// The cards picked to set aside, still in hand and no more than are still needed.
function asidePicks(ctx) {
  const p = pickState(ctx, 'aside');
  const me = ctx.view.me;
  const need = me ? 4 - me.set_aside.length : 0;
  const avail = me ? me.hand.slice() : [];
  p.values = p.values.filter((x) => (avail.includes(x) ? (removeOne(avail, x), true) : false)).slice(0, Math.max(need, 0));
  return { p, need };
}

// ---------------------------------------------------------------------------------------
// The model of one render: what the view says plus what this seat may do now.

function model(ctx) {
  const v = ctx.view;
  const t = ctx.t;
  const me = ctx.you === null || ctx.you === undefined ? null : ctx.you;
  const legal = ctx.replay ? [] : ctx.legal || [];
  const legalActions = legal.map((l) => l.action);
  const has = (a) => legalActions.some((x) => same(x, a));
  const kindOf = (a) => (typeof a === 'string' ? a : Object.keys(a)[0]);
  const legalKinds = new Set(legalActions.map(kindOf));
  const round = v.round;
  const props = v.properties.filter((p) => p.round === round);
  const older = v.properties.filter((p) => p.round < round);
  const mark = markTable(v);
  const info = v.auctions.find((a) => a.round === round && a.kind === 'information');
  const propAuction = v.auctions.find((a) => a.round === round && a.kind === 'property');
  const step = v.step.step;
  const name = (k) => (k === me ? `${ctx.seatName(k)} (${t('gfs.you')})` : ctx.seatName(k));
  const propName = (p) =>
    t('gfs.propName', { name: placeName(t, p), kind: t(p.kind === 'castle' ? 'gfs.castle' : 'gfs.manor') });
  const busy = sending(ctx);
  return { ctx, v, t, me, legal, has, legalKinds, round, props, older, mark, info, propAuction, step, name, propName, busy };
}

// ---------------------------------------------------------------------------------------
// Drawing.

function seatClass(k) {
  return `gfs-seat-${k}`;
}

function tokenEl(face, seat, opts = {}) {
  return h(
    opts.button ? 'button' : 'span',
    {
      class: `gfs-token ${face} ${seat === null ? 'neutral' : seatClass(seat)}${opts.cls ? ' ' + opts.cls : ''}`,
      title: opts.title,
      type: opts.button ? 'button' : null,
      'data-choice': opts.button ? '' : null,
      onclick: opts.onclick,
      'aria-label': opts.label,
    },
    svg(ICON[face === 'ghost' ? 'ghost' : 'painting']),
    opts.badge ? h('span', { class: 'gfs-token-badge' }, opts.badge) : null,
  );
}

// A bidding card lying on the table: its owner's colour, its back mark, and its value when
// this viewer may see it.
function bidCardEl(m, bid, revealed) {
  const own = bid.seat === m.me;
  const secret = own && !revealed && bid.value !== null && bid.value !== undefined;
  return h(
    'span',
    {
      class: `gfs-bid ${seatClass(bid.seat)} ${bid.mark}${bid.value !== null && bid.value !== undefined ? ' known' : ''}`,
      title: `${m.name(bid.seat)} · ${m.t('gfs.back', { mark: m.t(bid.mark === 'low' ? 'gfs.lowMark' : 'gfs.highMark') })}`,
      'data-secret': secret ? `gfs-bid-${m.me}-${bid.value}` : null,
    },
    bid.value !== null && bid.value !== undefined
      ? h('span', { class: 'gfs-bid-value' }, String(bid.value))
      : svg(ICON[bid.mark], 'gfs-mark'),
  );
}

function bidsOn(m, auction, key) {
  if (!auction) return [];
  return auction.bids.filter((b) => targetKey(b.target) === key);
}

// Who leads a target after the reveal, by the rules' ranking (total, highest card, who
// played that highest card first).
function ranking(bids) {
  const by = new Map();
  bids.forEach((b, i) => {
    let e = by.get(b.seat);
    if (!e) by.set(b.seat, (e = { seat: b.seat, total: 0, high: -1, at: 0 }));
    e.total += b.value || 0;
    if ((b.value || 0) > e.high) {
      e.high = b.value || 0;
      e.at = i;
    }
  });
  return [...by.values()].sort((a, b) => b.total - a.total || b.high - a.high || a.at - b.at);
}

function bidRow(m, auction, key) {
  const bids = bidsOn(m, auction, key);
  if (bids.length === 0) return null;
  const revealed = auction.revealed;
  const row = h('div', { class: 'gfs-bids' }, bids.map((b) => bidCardEl(m, b, revealed)));
  if (revealed) {
    const totals = ranking(bids);
    row.appendChild(
      h(
        'div',
        { class: 'gfs-totals' },
        totals.map((e) => h('span', { class: `gfs-total ${seatClass(e.seat)}` }, `${m.ctx.seatName(e.seat)} ${e.total}`)),
      ),
    );
  }
  return row;
}

function pointsTable(m, p) {
  const cells = [];
  for (let g = 0; g <= 5; g++) {
    const pts = g < 5 ? p.points[g] : 0;
    const hit = p.ghosts !== null && p.ghosts !== undefined && (g === p.ghosts || (g === 5 && p.ghosts >= 5));
    cells.push(
      h(
        'span',
        { class: `gfs-pt${hit ? ' hit' : ''}` },
        h('span', { class: 'g' }, g === 5 ? '5+' : String(g)),
        h('span', { class: 'n' }, String(pts)),
      ),
    );
  }
  return h(
    'div',
    { class: 'gfs-points', title: m.t('gfs.ptsTable'), 'aria-label': m.t('gfs.ptsTable') },
    h('span', { class: 'gfs-pt head' }, svg(ICON.ghost), h('span', { class: 'n' }, '★')),
    cells,
  );
}

function specialEl(m, card, small) {
  return h(
    'div',
    { class: `gfs-special sp-${card}${small ? ' small' : ''}`, title: m.t('gfs.spd.' + card) },
    h('span', { class: 'gfs-special-name' }, m.t('gfs.sp.' + card)),
    small ? null : h('span', { class: 'gfs-special-desc' }, m.t('gfs.spd.' + card)),
  );
}

// ---------------------------------------------------------------------------------------
// The turn being built: what may be clicked next.

// The steps of an auction turn: server state (cards already placed, a target already sent)
// plus the local draft [{target, value}] and a target picked but no card yet.
function auctionPlan(m) {
  const { ctx, v } = m;
  const turn = v.turn;
  const mine = turn && turn.seat === m.me && !m.busy && (m.legalKinds.has('bid') || m.legalKinds.has('play') || m.legalKinds.has('done') || m.legalKinds.has('pass'));
  if (!mine) return null;
  const d = ctx.draft;
  d.steps = d.steps || [];
  const hand = (v.me ? v.me.hand : []).slice();
  for (const s of d.steps) removeOne(hand, s.value);
  const serverTarget = turn.placing_on; // a target already sent (a reload mid-turn)
  const pendingTarget = d.steps.length === 0 && serverTarget ? serverTarget : d.target || null;
  const placed = turn.cards_placed + d.steps.length;
  const ended = d.steps.length > 0 && (placed >= 2 || hand.length === 0 || turn.last_card);
  const targets = [];
  if (!ended && !pendingTarget) {
    if (d.steps.length === 0) {
      for (const l of m.legal) if (l.action && l.action.bid) targets.push(l.action.bid.target);
    } else {
      // A second card may go on any target of this auction.
      if (m.step === 'information_auction') {
        targets.push('truelight');
        if (v.players > 3) targets.push('pile');
      } else {
        for (const p of m.props) targets.push({ property: p.index });
      }
    }
  }
  const canPass = d.steps.length === 0 && !pendingTarget && m.has('pass');
  const canDone = !ended && !pendingTarget && (d.steps.length > 0 || m.has('done'));
  return { hand, pendingTarget, placed, ended, targets, canPass, canDone, steps: d.steps };
}

function planActions(m, plan, withDone) {
  const out = [];
  const serverTarget = m.v.turn.placing_on;
  plan.steps.forEach((s, i) => {
    if (!(i === 0 && serverTarget)) out.push({ bid: { target: s.target } });
    out.push({ play: { value: s.value } });
  });
  if (withDone) out.push('done');
  return out;
}

function pickTarget(m, target) {
  m.ctx.draft.target = target;
  m.ctx.rerender();
}

function pickCard(m, plan, value) {
  const d = m.ctx.draft;
  d.steps = d.steps || [];
  d.steps.push({ target: plan.pendingTarget, value });
  d.target = null;
  m.ctx.rerender();
}

function undoAuction(m) {
  const d = m.ctx.draft;
  // Undo walks back one click at a time: a card back to the hand (its target still chosen),
  // then the target.
  if (d.target) d.target = null;
  else if (d.steps && d.steps.length) {
    const last = d.steps.pop();
    if (!(d.steps.length === 0 && m.v.turn.placing_on)) d.target = last.target;
  }
  m.ctx.rerender();
}

function targetLabel(m, target) {
  if (target === 'truelight') return m.t('gfs.truelight');
  if (target === 'pile') return m.t('gfs.pile');
  const p = m.props.find((x) => x.index === target.property);
  return p ? m.propName(p) : '?';
}

// ---------------------------------------------------------------------------------------
// Sections.

function headerEl(m) {
  const { v, t } = m;
  const steps = ['truth_or_lie', 'declarations', 'information_auction', 'property_auction'];
  const current = m.step === 'special_card' ? 'property_auction' : m.step;
  return h(
    'div',
    { class: 'gfs-head' },
    h('div', { class: 'gfs-round' }, svg(ICON[m.round === 1 ? 'manor' : 'castle'], 'big'), t(m.round === 1 ? 'gfs.round1' : 'gfs.round2')),
    h(
      'ol',
      { class: 'gfs-steps' },
      m.step === 'set_aside' ? h('li', { class: 'current' }, t('gfs.step.set_aside')) : null,
      steps.map((s) =>
        h(
          'li',
          { class: s === current ? 'current' : steps.indexOf(s) < steps.indexOf(current) || m.step === 'game_over' ? 'past' : '' },
          t(s === 'property_auction' ? `gfs.step.property_auction.${m.round}` : `gfs.step.${s}`),
        ),
      ),
      m.step === 'game_over' ? h('li', { class: 'current' }, t('gfs.step.game_over')) : null,
    ),
    v.spare_special_cards.length
      ? h('div', { class: 'gfs-spare' }, h('span', { class: 'lbl' }, t('gfs.spare')), v.spare_special_cards.map((c) => specialEl(m, c, true)))
      : null,
  );
}

// The prompt and the controls of the turn being built.
function promptEl(m) {
  const { v, t, ctx } = m;
  const bar = h('div', { class: 'gfs-prompt', role: 'status', 'data-actions': '' });
  const text = h('p', { class: 'gfs-hint' });
  const buttons = h('div', { class: 'gfs-controls' });
  bar.append(text, buttons);
  const waitNames = (v.to_move || []).map((k) => m.name(k)).join(', ');
  if (m.busy) {
    text.textContent = t('gfs.sending');
    return bar;
  }
  if (m.step === 'game_over') {
    text.textContent = t('gfs.hint.over');
    return bar;
  }
  const mineNow = m.legal.length > 0;
  if (!mineNow) {
    const secret = m.step === 'set_aside' || m.step === 'truth_or_lie';
    text.textContent = waitNames ? t(secret ? 'gfs.hint.waitSecret' : 'gfs.hint.wait', { names: waitNames }) : '';
    return bar;
  }
  if (m.step === 'set_aside') {
    const { p, need } = asidePicks(ctx);
    text.textContent = p.values.length >= need ? t('gfs.hint.setAsideReady') : t('gfs.hint.setAside', { n: need - p.values.length });
    if (p.values.length) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { p.values.pop(); ctx.rerender(); } }, t('gfs.undo')),
        h(
          'button',
          {
            type: 'button',
            class: 'gfs-btn primary',
            'data-choice': '',
            onclick: () => {
              const vals = p.values.splice(0);
              enqueue(ctx, vals.map((value) => ({ set_aside: { value } })));
            },
          },
          t('gfs.setAsideConfirm'),
        ),
      );
    }
  } else if (m.step === 'truth_or_lie') {
    const p = pickState(ctx, 'choose');
    text.textContent = p.card ? t('gfs.hint.chooseReady') : t('gfs.hint.choose');
    if (p.card) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { p.card = null; ctx.rerender(); } }, t('gfs.undo')),
        h(
          'button',
          {
            type: 'button',
            class: 'gfs-btn primary',
            'data-choice': '',
            onclick: () => {
              const card = p.card;
              p.card = null;
              enqueue(ctx, [{ choose: { card } }]);
            },
          },
          t('gfs.playQ'),
        ),
      );
    }
  } else if (m.step === 'declarations') {
    const d = ctx.draft;
    text.textContent = d.token ? t('gfs.hint.declareWhere', { kind: t(m.round === 1 ? 'gfs.manor' : 'gfs.castle') }) : t('gfs.hint.declare');
    if (d.token) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { d.token = null; ctx.rerender(); } }, t('gfs.undo')));
    }
  } else if (m.step === 'information_auction' || m.step === 'property_auction') {
    const plan = auctionPlan(m);
    if (!plan) return bar;
    if (plan.pendingTarget) text.textContent = t('gfs.hint.card', { target: targetLabel(m, plan.pendingTarget) });
    else if (plan.ended) text.textContent = t('gfs.hint.ready');
    else if (plan.steps.length > 0 || v.turn.cards_placed > 0) text.textContent = t('gfs.hint.second');
    else if (v.turn.last_card) text.textContent = t('gfs.hint.lastCard');
    else text.textContent = plan.canPass ? t('gfs.hint.bid') : t('gfs.hint.bidNoPass');
    if (ctx.draft.target || plan.steps.length) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => undoAuction(m) }, t('gfs.undo')));
    }
    if (plan.ended) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn primary', 'data-choice': '', onclick: () => enqueue(ctx, planActions(m, plan, false)) }, t('gfs.placeCards')),
      );
    } else if (plan.canDone) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn primary gfs-end', 'data-choice': '', onclick: () => enqueue(ctx, planActions(m, plan, true)) }, t('gfs.endTurn')),
      );
    }
    if (plan.canPass) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn pass', 'data-choice': '', onclick: () => enqueue(ctx, ['pass']) }, t('gfs.pass')));
    }
  } else if (m.step === 'special_card') {
    const sc = v.step;
    const p = m.props.find((x) => x.index === sc.property && x.round === sc.round) || v.properties.find((x) => x.index === sc.property && x.round === sc.round);
    const prop = p ? m.propName(p) : '';
    if (sc.card === 'magic_mirror') {
      text.textContent = t('gfs.hint.mirror', { prop });
      for (const l of m.legal) {
        if (l.action && l.action.remove_ghost) {
          const owner = l.action.remove_ghost.owner;
          buttons.append(
            h(
              'button',
              { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => enqueue(ctx, [l.action]) },
              tokenEl('ghost', owner, {}),
              t('gfs.removeGhostOf', { name: m.name(owner) }),
            ),
          );
        }
      }
    } else if (sc.card === 'secret_crypt') {
      text.textContent = t('gfs.hint.crypt', { prop });
      if (m.has('add_ghost')) buttons.append(h('button', { type: 'button', class: 'gfs-btn primary', 'data-choice': '', onclick: () => enqueue(ctx, ['add_ghost']) }, svg(ICON.ghost), t('gfs.addGhost')));
    } else if (sc.card === 'crystal_ball') {
      text.textContent = t('gfs.hint.crystal', { prop });
      for (const l of m.legal) {
        if (l.action && l.action.guess) {
          const n = l.action.guess.ghosts;
          buttons.append(h('button', { type: 'button', class: 'gfs-btn gfs-guess', 'data-choice': '', onclick: () => enqueue(ctx, [l.action]) }, svg(ICON.ghost), t('gfs.guess', { n })));
        }
      }
    }
    if (m.has('decline')) buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => enqueue(ctx, ['decline']) }, t('gfs.decline')));
  }
  return bar;
}

function truelightEl(m, plan) {
  const { t, v } = m;
  const isTarget = plan && plan.targets.some((x) => x === 'truelight');
  const chosen = plan && plan.pendingTarget === 'truelight';
  const looks = v.looks.filter((l) => l.round === m.round);
  const body = [
    h('div', { class: 'gfs-target-art' }, svg(ICON.lady, 'lady')),
    h('div', { class: 'gfs-target-name' }, t('gfs.truelight')),
    h('div', { class: 'gfs-target-hint' }, t('gfs.truelightHint')),
    bidRow(m, m.info, 'truelight'),
    draftBids(m, plan, 'truelight'),
    looks.length
      ? h(
          'ol',
          { class: 'gfs-looks' },
          looks.map((l) =>
            h(
              'li',
              { 'data-secret': l.seen && l.looker === m.me && !roundOpen(m, l.round) ? `gfs-look-${m.me}-${l.round}` : null },
              h('span', { class: 'rank' }, t('gfs.rank', { n: l.rank })),
              h('span', { class: `gfs-chip ${seatClass(l.looker)}` }, m.ctx.seatName(l.looker)),
              svg(ICON.magnifier, `gfs-mag ${seatClass(l.looked_at)}`),
              h('span', { class: `gfs-chip ${seatClass(l.looked_at)}` }, m.ctx.seatName(l.looked_at)),
              l.seen ? h('span', { class: `gfs-qface ${l.seen}` }, t(l.seen === 'truth' ? 'gfs.truth' : 'gfs.lie')) : null,
            ),
          ),
        )
      : null,
  ];
  return targetBox(m, 'truelight', body, isTarget, chosen);
}

function roundOpen(m, r) {
  return r < m.round || m.step === 'game_over';
}

function pileEl(m, plan) {
  const { t, v } = m;
  if (v.players <= 3) {
    return h('div', { class: 'gfs-target disabled' }, h('div', { class: 'gfs-target-art' }, svg(ICON.qcard, 'qpile')), h('div', { class: 'gfs-target-hint' }, t('gfs.noPile')));
  }
  const isTarget = plan && plan.targets.some((x) => x === 'pile');
  const chosen = plan && plan.pendingTarget === 'pile';
  const seen = v.pile.find((p) => p.round === m.round);
  const body = [
    h('div', { class: 'gfs-target-art' }, svg(ICON.qcard, 'qpile'), svg(ICON.qcard, 'qpile'), svg(ICON.qcard, 'qpile')),
    h('div', { class: 'gfs-target-name' }, t('gfs.pile')),
    h('div', { class: 'gfs-target-hint' }, t('gfs.pileHint')),
    bidRow(m, m.info, 'pile'),
    draftBids(m, plan, 'pile'),
    seen
      ? h(
          'div',
          { class: 'gfs-pileseen', 'data-secret': seen.seen && seen.seer === m.me && !roundOpen(m, seen.round) ? `gfs-pile-${m.me}-${seen.round}` : null },
          h('span', { class: `gfs-chip ${seatClass(seen.seer)}` }, m.ctx.seatName(seen.seer)),
          ' ',
          seen.seen ? t('gfs.pileCounts', seen.seen) : t('gfs.pileSeen'),
        )
      : null,
  ];
  return targetBox(m, 'pile', body, isTarget, chosen);
}

// The cards of the turn being built, shown where they will lie (dashed: not sent yet).
function draftBids(m, plan, key) {
  if (!plan) return null;
  const cards = plan.steps.filter((s) => targetKey(s.target) === key);
  if (cards.length === 0) return null;
  return h(
    'div',
    { class: 'gfs-bids draft' },
    cards.map((s) => h('span', { class: `gfs-bid ${seatClass(m.me)} known draft`, 'data-secret': `gfs-draft-${m.me}-${s.value}` }, h('span', { class: 'gfs-bid-value' }, String(s.value)))),
  );
}

function targetBox(m, target, body, isTarget, chosen) {
  const cls = `gfs-target${chosen ? ' chosen' : ''}${isTarget ? ' choosable' : ''}`;
  if (isTarget) {
    return h('button', { type: 'button', class: cls, 'data-choice': '', onclick: () => pickTarget(m, target), 'aria-label': targetLabel(m, target) }, body);
  }
  return h('div', { class: cls }, body);
}

function propertyEl(m, p, plan) {
  const { t, v, ctx } = m;
  const current = p.round === m.round && m.step !== 'game_over';
  const target = { property: p.index };
  const isTarget = current && plan && plan.targets.some((x) => same(x, target));
  const chosen = current && plan && plan.pendingTarget && same(plan.pendingTarget, target);
  const d = ctx.draft;
  const declaring = current && m.step === 'declarations' && d.token && !m.busy;
  const declAction = declaring ? { declare: { property: p.index, token: d.token } } : null;
  const canDeclare = declaring && m.has(declAction);
  const decidingHere = m.step === 'special_card' && v.step.round === p.round && v.step.property === p.index;
  const mirrorHere = decidingHere && v.step.card === 'magic_mirror' && m.legal.length > 0 && !m.busy;

  const tokens = [];
  p.declarations.forEach((st, seat) => {
    for (let i = 0; i < st.ghost; i++) {
      const removable = mirrorHere && i === 0 && m.has({ remove_ghost: { owner: seat } });
      tokens.push(
        tokenEl('ghost', seat, {
          button: removable,
          title: `${m.ctx.seatName(seat)}: ${t('gfs.ghost')}`,
          label: removable ? t('gfs.removeGhostOf', { name: m.ctx.seatName(seat) }) : null,
          cls: removable ? 'removable' : '',
          onclick: removable ? () => enqueue(ctx, [{ remove_ghost: { owner: seat } }]) : null,
        }),
      );
    }
    for (let i = 0; i < st.painting; i++) tokens.push(tokenEl('painting', seat, { title: `${m.ctx.seatName(seat)}: ${t('gfs.painting')}` }));
  });
  if (p.crypt_ghost_added) tokens.push(tokenEl('ghost', null, { title: t('gfs.cryptAdded') }));

  const status = [];
  if (p.mirror_removed !== null && p.mirror_removed !== undefined) status.push(h('div', { class: 'gfs-note' }, t('gfs.mirrorRemoved', { name: m.ctx.seatName(p.mirror_removed) })));
  if (p.crystal_guess !== null && p.crystal_guess !== undefined) status.push(h('div', { class: 'gfs-note' }, t('gfs.crystalGuess', { n: p.crystal_guess })));
  if (p.owner !== null && p.owner !== undefined) status.push(h('div', { class: `gfs-owner ${seatClass(p.owner)}` }, t('gfs.owner', { name: m.name(p.owner) })));
  if (p.boxed) status.push(h('div', { class: 'gfs-boxed' }, t('gfs.boxed')));
  if (p.ghosts !== null && p.ghosts !== undefined) {
    status.push(
      h('div', { class: 'gfs-result' }, h('span', null, svg(ICON.ghost), ' ', t('gfs.ghostsN', { n: p.ghosts })), h('b', null, t('gfs.score', { n: p.score ?? 0 }))),
    );
  }

  const body = [
    h('div', { class: 'gfs-prop-head' }, svg(ICON[p.kind === 'castle' ? 'castle' : 'manor'], 'house'), h('span', { class: 'gfs-prop-name' }, m.propName(p))),
    p.special ? specialEl(m, p.special, false) : null,
    pointsTable(m, p),
    h('div', { class: 'gfs-decl' }, tokens),
    current ? bidRow(m, m.propAuction, 'p' + p.index) : null,
    current ? draftBids(m, plan, 'p' + p.index) : null,
    status,
  ];
  const owned = p.owner !== null && p.owner !== undefined ? ` owned ${seatClass(p.owner)}` : '';
  const cls = `gfs-prop ${p.kind}${owned}${p.boxed ? ' boxed' : ''}${chosen ? ' chosen' : ''}${isTarget || canDeclare ? ' choosable' : ''}${decidingHere ? ' deciding' : ''}`;
  if (isTarget) {
    return h('button', { type: 'button', class: cls, 'data-choice': '', onclick: () => pickTarget(m, target), 'aria-label': targetLabel(m, target) }, body);
  }
  if (canDeclare) {
    return h(
      'button',
      {
        type: 'button',
        class: cls,
        'data-choice': '',
        'aria-label': m.propName(p),
        onclick: () => {
          d.token = null;
          enqueue(ctx, [declAction]);
        },
      },
      body,
    );
  }
  return h('div', { class: cls }, body);
}

// A property's name in the page's language (a name the messages do not know, from an
// edited data file, as it is written).
function placeName(t, p) {
  const key = 'gfs.n.' + p.name;
  const n = t(key);
  return n && n !== key ? n : p.name;
}

function miniProp(m, p) {
  return h(
    'div',
    { class: `gfs-mini ${p.kind}`, title: m.propName(p) },
    svg(ICON[p.kind === 'castle' ? 'castle' : 'manor'], 'house'),
    h('span', { class: 'nm' }, placeName(m.t, p)),
    p.ghosts !== null && p.ghosts !== undefined ? h('span', { class: 'gh' }, svg(ICON.ghost), String(p.ghosts)) : null,
    p.score !== null && p.score !== undefined ? h('b', null, t2(m, 'gfs.score', { n: p.score })) : null,
    p.special === 'crystal_ball' || p.special === 'family_portrait' ? null : null,
  );
}

function t2(m, k, p) {
  return m.t(k, p);
}

// One player's area: character card, "?" card, tokens, bidding cards, bought properties.
function seatEl(m, seat, mine) {
  const { v, t, ctx } = m;
  const s = v.seats[seat];
  const turn = v.turn && v.turn.seat === seat;
  const pending = (v.to_move || []).includes(seat);
  const first = v.first_player === seat;
  const owned = v.properties.filter((p) => p.owner === seat);
  const looks = v.looks.filter((l) => l.round === m.round && l.looker === seat);
  const revealedNow = s.revealed_cards.length >= m.round;
  const secretStep = m.step === 'set_aside' || m.step === 'truth_or_lie';

  // The "?" card in front of the player.
  let qcard;
  const myQ = mine && v.me && v.me.question_card;
  if (revealedNow) {
    const c = s.revealed_cards[m.round - 1];
    qcard = h('div', { class: `gfs-q face ${c}` }, h('span', { class: 'q-lbl' }, t(c === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')));
  } else if (myQ) {
    qcard = h('div', { class: `gfs-q face ${myQ} mine`, 'data-secret': `gfs-q-${seat}-${m.round}` }, h('span', { class: 'q-lbl' }, t(myQ === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')));
  } else if (s.has_chosen) {
    qcard = h('div', { class: 'gfs-q down', title: t('gfs.chosen') }, svg(ICON.qcard));
  } else {
    qcard = h('div', { class: 'gfs-q empty', title: t('gfs.choosing') }, '?');
  }
  const prevCards = s.revealed_cards
    .slice(0, Math.min(s.revealed_cards.length, m.round - 1))
    .map((c, i) => h('span', { class: `gfs-qsmall ${c}`, title: `R${i + 1}` }, t(c === 'truth' ? 'gfs.truth' : 'gfs.lie')));

  const tokensLeft = h(
    'div',
    { class: 'gfs-supply', title: t('gfs.tokens') },
    s.tokens_left.ghost ? tokenEl('ghost', seat, { badge: `×${s.tokens_left.ghost}`, title: t('gfs.ghost') }) : null,
    s.tokens_left.painting ? tokenEl('painting', seat, { badge: `×${s.tokens_left.painting}`, title: t('gfs.painting') }) : null,
    s.tokens_left.double_faced ? tokenEl('ghost', seat, { cls: 'double', badge: `×${s.tokens_left.double_faced}`, title: t('gfs.double') }) : null,
  );

  const head = h(
    'div',
    { class: 'gfs-seat-head' },
    h('span', { class: `gfs-chip ${seatClass(seat)}` }, m.name(seat)),
    first ? h('span', { class: 'gfs-badge first', title: t('gfs.firstPlayer') }, t('gfs.firstShort')) : null,
    s.passed ? h('span', { class: 'gfs-badge passed' }, t('gfs.passed')) : null,
    secretStep && pending ? h('span', { class: 'gfs-badge choosing' }, t('gfs.choosing')) : null,
    secretStep && !pending && m.step === 'truth_or_lie' && s.has_chosen ? h('span', { class: 'gfs-badge chosen' }, t('gfs.chosen')) : null,
    h('span', { class: 'gfs-score' }, t('gfs.score', { n: s.score })),
  );

  const handBacks = h(
    'div',
    { class: 'gfs-handcount', title: t('gfs.handCount', { n: s.hand_count }) },
    h('span', { class: 'gfs-backs' }, Array.from({ length: Math.min(s.hand_count, 12) }, () => h('span', { class: `gfs-back ${seatClass(seat)}` }))),
    h('span', { class: 'n' }, t('gfs.handCount', { n: s.hand_count })),
  );
  const aside =
    s.set_aside_count > 0 || m.round === 1
      ? h('div', { class: 'gfs-asidecount' }, t('gfs.setAsideCount', { n: s.set_aside_count }))
      : null;

  const extras = [];
  if (s.crystal_ball) extras.push(specialEl(m, 'crystal_ball', true));
  if (s.family_portrait) extras.push(specialEl(m, 'family_portrait', true));

  return h(
    'section',
    { class: `gfs-seat ${seatClass(seat)}${turn ? ' turn' : ''}${pending ? ' pending' : ''}${mine ? ' mine' : ''}`, 'aria-label': m.name(seat) },
    head,
    h(
      'div',
      { class: 'gfs-seat-body' },
      h('div', { class: 'gfs-char' }, h('div', { class: `gfs-charcard ${seatClass(seat)}`, title: t('gfs.character') }, svg(ICON.ghost, 'char')), qcard, prevCards.length ? h('div', { class: 'gfs-prevq' }, prevCards) : null),
      h(
        'div',
        { class: 'gfs-seat-info' },
        tokensLeft,
        mine ? null : handBacks,
        mine ? null : aside,
        looks.length
          ? h(
              'div',
              { class: 'gfs-mags' },
              looks.map((l) =>
                h(
                  'span',
                  { class: 'gfs-magtok', title: t('gfs.looked', { name: ctx.seatName(l.looked_at) }), 'data-secret': mine && l.seen && !roundOpen(m, l.round) ? `gfs-look2-${seat}-${l.round}` : null },
                  svg(ICON.magnifier, `gfs-mag ${seatClass(l.looked_at)}`),
                  l.seen ? t('gfs.lookedSeen', { name: ctx.seatName(l.looked_at), card: t(l.seen === 'truth' ? 'gfs.truth' : 'gfs.lie') }) : t('gfs.looked', { name: ctx.seatName(l.looked_at) }),
                ),
              ),
            )
          : null,
        owned.length ? h('div', { class: 'gfs-owned', title: t('gfs.owned') }, owned.map((p) => miniProp(m, p))) : null,
        // Paid cards are public (turned up, then boxed): what a player has left follows from them.
        s.paid.length ? h('div', { class: 'gfs-paid' }, h('span', { class: 'lbl' }, t('gfs.paid')), s.paid.map((x) => h('span', { class: 'gfs-paidcard' }, String(x)))) : null,
        extras.length ? h('div', { class: 'gfs-extras' }, extras) : null,
      ),
    ),
  );
}

// This player's own hand: the bidding cards (with the back mark each shows when played),
// the cards hidden for round 2, the two "?" cards and the declaration tokens.
function handEl(m) {
  const { v, t, ctx } = m;
  if (!v.me) return null;
  const me = m.me;
  const hand = v.me.hand.slice();
  const area = h('div', { class: 'gfs-hand-area' });

  // What a click on a hand card does now.
  let pickable = () => false;
  let onPick = null;
  let picked = [];
  if (!m.busy && m.step === 'set_aside' && m.legal.length) {
    const { p, need } = asidePicks(ctx);
    picked = p.values.slice();
    pickable = () => p.values.length < need;
    onPick = (value) => {
      p.values.push(value);
      ctx.rerender();
    };
  }
  const plan = m.step === 'information_auction' || m.step === 'property_auction' ? auctionPlan(m) : null;
  if (plan) {
    picked = plan.steps.map((s) => s.value);
    if (plan.pendingTarget) {
      pickable = () => true;
      onPick = (value) => pickCard(m, plan, value);
    }
  }

  const remaining = hand.slice();
  for (const x of picked) removeOne(remaining, x);
  const shown = [...count(remaining).entries()].sort((a, b) => a[0] - b[0]);
  const cards = [];
  // Both copies of a value (two 3s, two 8s) are alike: either one picks the value.
  for (const [value, n] of shown) {
    for (let i = 0; i < n; i++) {
      const mk = m.mark(value);
      const choosable = onPick && pickable(value);
      cards.push(
        h(
          choosable ? 'button' : 'div',
          {
            type: choosable ? 'button' : null,
            class: `gfs-card ${mk}${choosable ? ' choosable' : ''}`,
            'data-choice': choosable ? '' : null,
            'data-secret': `gfs-hand-${me}-${value}-${i}`,
            'aria-label': `${value} (${t('gfs.back', { mark: t(mk === 'low' ? 'gfs.lowMark' : 'gfs.highMark') })})`,
            onclick: choosable ? () => onPick(value) : null,
          },
          h('span', { class: 'gfs-card-value' }, String(value)),
          h('span', { class: 'gfs-card-mark', title: t('gfs.back', { mark: t(mk === 'low' ? 'gfs.lowMark' : 'gfs.highMark') }) }, svg(ICON[mk]), t(mk === 'low' ? 'gfs.low' : 'gfs.high')),
        ),
      );
    }
  }
  const pickedCards = picked.map((value, i) =>
    h(
      'div',
      { class: `gfs-card ${m.mark(value)} picked`, 'data-secret': `gfs-pick-${me}-${value}-${i}` },
      h('span', { class: 'gfs-card-value' }, String(value)),
    ),
  );

  area.append(
    h('div', { class: 'gfs-hand-title' }, t('gfs.hand'), ` (${hand.length})`),
    h('div', { class: 'gfs-hand' }, cards, pickedCards.length && m.step === 'set_aside' ? h('div', { class: 'gfs-picked' }, h('span', { class: 'lbl' }, '→ ', t('gfs.setAside')), pickedCards) : null),
  );
  if (v.me.set_aside.length) {
    area.append(
      h(
        'div',
        { class: 'gfs-aside' },
        h('span', { class: 'lbl' }, t('gfs.setAside')),
        v.me.set_aside.map((value, i) => h('div', { class: `gfs-card small ${m.mark(value)}`, 'data-secret': `gfs-aside-${me}-${value}-${i}` }, h('span', { class: 'gfs-card-value' }, String(value)))),
      ),
    );
  }

  // Truth or lie: both "?" cards, face up to their owner.
  if (m.step === 'truth_or_lie' && m.legal.length && !m.busy) {
    const p = pickState(ctx, 'choose');
    area.append(
      h(
        'div',
        { class: 'gfs-qchoice' },
        ['truth', 'lie'].map((card) => {
          const choosable = !p.card && m.has({ choose: { card } });
          return h(
            choosable ? 'button' : 'div',
            {
              type: choosable ? 'button' : null,
              class: `gfs-q face big ${card}${p.card === card ? ' chosen' : ''}${choosable ? ' choosable' : ''}`,
              'data-choice': choosable ? '' : null,
              onclick: choosable ? () => { p.card = card; ctx.rerender(); } : null,
            },
            h('span', { class: 'q-lbl' }, t(card === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')),
          );
        }),
      ),
    );
  }

  // Declarations: the tokens to pick up.
  if (m.step === 'declarations' && m.legal.length && !m.busy) {
    const d = ctx.draft;
    const kinds = [
      ['ghost', 'ghost', 'gfs.ghost', v.seats[me].tokens_left.ghost],
      ['painting', 'painting', 'gfs.painting', v.seats[me].tokens_left.painting],
      ['double_ghost', 'ghost', 'gfs.doubleGhost', v.seats[me].tokens_left.double_faced],
      ['double_painting', 'painting', 'gfs.doublePainting', v.seats[me].tokens_left.double_faced],
    ];
    area.append(
      h(
        'div',
        { class: 'gfs-tokpick' },
        kinds.map(([token, face, label, n]) => {
          const offered = m.legal.some((l) => l.action && l.action.declare && l.action.declare.token === token);
          if (!offered && n === 0) return null;
          const choosable = offered && !d.token;
          return h(
            choosable ? 'button' : 'div',
            {
              type: choosable ? 'button' : null,
              class: `gfs-tokopt${d.token === token ? ' chosen' : ''}${choosable ? ' choosable' : ''}${offered ? '' : ' off'}`,
              'data-choice': choosable ? '' : null,
              onclick: choosable ? () => { d.token = token; ctx.rerender(); } : null,
            },
            tokenEl(face, me, { cls: token.startsWith('double') ? 'double' : '' }),
            h('span', null, t(label), ` ×${n}`),
          );
        }),
      ),
    );
  }
  return area;
}

function finalEl(m) {
  const { v, t, ctx } = m;
  if (m.step !== 'game_over') return null;
  const ranks = ctx.outcome && ctx.outcome.ranks ? ctx.outcome.ranks : null;
  const order = v.seats.map((s) => s.seat).sort((a, b) => (ranks ? ranks[a] - ranks[b] : v.seats[b].score - v.seats[a].score));
  return h(
    'div',
    { class: 'gfs-final' },
    h('h3', null, t('gfs.final')),
    h(
      'ol',
      null,
      order.map((k) =>
        h(
          'li',
          { class: ranks && ranks[k] === 1 ? 'gfs-winner' : '' },
          h('span', { class: `gfs-chip ${seatClass(k)}` }, m.name(k)),
          ' ',
          h('b', null, t('gfs.score', { n: v.seats[k].score })),
          ranks && ranks[k] === 1 ? h('span', { class: 'gfs-badge win' }, t('gfs.winner')) : null,
        ),
      ),
    ),
  );
}

// What identifies a button across redraws (the board is rebuilt on every state).
function focusKey(el) {
  return el.getAttribute('aria-label') || el.textContent.trim();
}

function render(root, ctx) {
  // A keyboard player keeps its place: the focused button, or the next choice, is focused
  // again after the redraw.
  const active = document.activeElement;
  const hadFocus = !!active && active !== root && root.contains(active);
  const key = hadFocus ? focusKey(active) : null;
  const v = ctx.view;
  if (!v) {
    root.replaceChildren(h('div', { class: 'gfs-board' }, h('p', { class: 'gfs-hint' }, '…')));
    return;
  }
  // Send the next queued action first: it decides whether choices are drawn.
  pump(ctx);
  const m = model(ctx);
  if (m.step !== 'declarations' && ctx.draft.token) ctx.draft.token = null;
  const plan = m.step === 'information_auction' || m.step === 'property_auction' ? auctionPlan(m) : null;

  const others = [];
  const n = v.players;
  const start = m.me === null ? 0 : m.me + 1;
  for (let i = 0; i < n; i++) {
    const k = (start + i) % n;
    if (k !== m.me) others.push(k);
  }

  const centre = h(
    'div',
    { class: 'gfs-centre' },
    h('div', { class: 'gfs-info' }, truelightEl(m, plan), pileEl(m, plan)),
    h('div', { class: 'gfs-props' }, m.props.map((p) => propertyEl(m, p, plan))),
  );

  const board = h(
    'div',
    { class: `gfs-board players-${n}`, 'data-game': GAME, 'data-step': m.step, 'data-round': m.round },
    headerEl(m),
    finalEl(m),
    h('div', { class: 'gfs-others' }, others.map((k) => seatEl(m, k, false))),
    centre,
    promptEl(m),
    m.me !== null && v.seats[m.me] ? h('div', { class: 'gfs-mine' }, seatEl(m, m.me, true), handEl(m)) : null,
    m.older.length
      ? h(
          'details',
          { class: 'gfs-history' },
          h('summary', null, m.t('gfs.history')),
          h('div', { class: 'gfs-props old' }, m.older.map((p) => propertyEl(m, p, null))),
        )
      : null,
  );
  root.replaceChildren(board);
  if (hadFocus) {
    const again = [...board.querySelectorAll('button')].find((b) => focusKey(b) === key) || board.querySelector('[data-choice]');
    if (again) again.focus({ preventScroll: true });
  }
  // Every legal state must offer something to click. Should a state arrive that the drawing
  // above does not cover, the legal actions are offered as they are rather than stalling.
  if (!m.busy && m.legal.length && !board.querySelector('[data-choice]')) {
    board.querySelector('.gfs-controls').append(
      ...m.legal.map((l) => h('button', { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => enqueue(ctx, [l.action]) }, l.label)),
    );
  }
}

// The first player is the table's call (「一番幽霊に見えるプレイヤーが最初のプレイヤーとなります」):
// random, or a seat of the chosen player count.
function optionFields(optionSets, players, t) {
  const seats = [{ value: null, label: t('gfs.opt.random') }];
  for (let k = 0; k < (players || 5); k++) seats.push({ value: k, label: t('gfs.opt.seat', { n: k + 1 }) });
  return [
    {
      key: 'special_cards',
      label: t('gfs.opt.special'),
      values: [
        { value: false, label: t('gfs.opt.basic') },
        { value: true, label: t('gfs.opt.advanced') },
      ],
    },
    { key: 'first_player', label: t('gfs.opt.first'), values: seats },
  ];
}

export default { messages, rules, optionFields, render };
