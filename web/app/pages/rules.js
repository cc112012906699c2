// /rules and /rules/{game}: the catalog, and a board module's rules page in the current
// language.
import { h, clear } from '../dom.js';
import { t, lang } from '../i18n.js';
import { loadBoard } from '../board-host.js';
import { app, main, link, gameInfo, gameName } from '../shell.js';

export async function rulesPage(m) {
  const id = m[1];
  if (!id) {
    clear(
      main,
      h('h1', null, t('rules.title')),
      h(
        'ul',
        { class: 'game-list' },
        app.games.map((g) =>
          h(
            'li',
            null,
            link('/rules/' + g.meta.id, gameName(g.meta.id)),
            ' ',
            h('span', { class: 'muted' }, t('rules.meta', { min: g.meta.min_players, max: g.meta.max_players, m0: g.meta.minutes[0], m1: g.meta.minutes[1], age: g.meta.min_age })),
          ),
        ),
      ),
    );
    return {};
  }
  const g = gameInfo(id);
  if (!g) throw { code: 'unknown_game', message: id };
  const mod = await loadBoard(id);
  const html = mod.rules && (mod.rules[lang()] || mod.rules.en || mod.rules.ja);
  clear(
    main,
    h('h1', null, gameName(id)),
    h('p', { class: 'muted' }, t('rules.meta', { min: g.meta.min_players, max: g.meta.max_players, m0: g.meta.minutes[0], m1: g.meta.minutes[1], age: g.meta.min_age })),
    html ? h('article', { class: 'rules', 'data-rules': id, html }) : h('article', { class: 'rules', 'data-rules': id }, h('p', null, t('rules.none'))),
    link('/rules', t('rules.all')),
  );
  return {};
}
