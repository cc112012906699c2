// The result of a finished game (ranks, scores, teams, the winning team): the table page
// and the replay's last step.
import { h } from '../dom.js';
import { t, lang } from '../i18n.js';
import { seatLabel } from '../board-host.js';
import { gameInfo } from '../shell.js';

export function resultPanel(info, seats, outcome, you) {
  const g = gameInfo(info.game);
  const teamNames = (g && g.meta.teams) || [];
  const rows = seats.map((st, k) => ({ k, st, rank: (outcome.ranks || [])[k], score: (outcome.scores || [])[k], team: (outcome.teams || [])[k] }));
  rows.sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99) || a.k - b.k);
  const teamName = (i) => (i === null || i === undefined ? '' : teamNames[i] ? teamNames[i][lang()] || teamNames[i].en : t('result.team', { n: i + 1 }));
  const hasTeams = rows.some((r) => r.team !== null && r.team !== undefined);
  return h(
    'section',
    { class: 'card result', 'data-outcome': '' },
    h('h2', null, t('result.title')),
    outcome.winning_team !== null && outcome.winning_team !== undefined && h('p', { class: 'winner', 'data-winning-team': outcome.winning_team }, t('result.teamWins', { team: teamName(outcome.winning_team) })),
    you !== null && you !== undefined && (outcome.ranks || [])[you] === 1 && h('p', { class: 'winner' }, t('result.youWin')),
    h(
      'table',
      null,
      h('thead', null, h('tr', null, h('th', null, t('result.rank')), h('th', null, t('result.player')), h('th', null, t('result.score')), hasTeams && h('th', null, t('result.teamCol')))),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            { 'data-seat': r.k, class: r.k === you ? 'you' : '' },
            h('td', null, r.rank ?? ''),
            h('td', null, seatLabel(r.st, r.k)),
            h('td', null, r.score ?? ''),
            hasTeams && h('td', null, teamName(r.team)),
          ),
        ),
      ),
    ),
  );
}
