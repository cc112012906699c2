// Recommendations (issue 18): the "For you" page — games from everyone's shelves that one
// has neither played nor owned, each with its reason, filtered by players, time and age,
// with "Not interested" (and its undo) — and the game page's "people who like this also
// like" block. Every piece of user text goes in as a text node (dom.js `h`).
import { h, clear } from './dom.js';
import { get, post, api } from './api.js';
import { t, lang } from './i18n.js';
import { displayName } from './shelf.js';

// ctx: {app, main, link, errorBox, showError, navigate}
let ctx = null;

export function recommendRoutes(c) {
  ctx = c;
  return [[/^\/for-you$/, (m, p) => forYouPage(p), true]];
}

const FILTERS = ['players', 'max_minutes', 'min_age'];

async function forYouPage(params) {
  const { main, link, errorBox, showError, navigate } = ctx;
  const err = errorBox();
  const field = (name, attrs) => h('input', { name, 'data-filter': name, type: 'number', value: params.get(name) || '', ...attrs });
  const form = h(
    'form',
    {
      class: 'filters shelf-filters',
      'data-form': 'recommend-filters',
      onsubmit: (ev) => {
        ev.preventDefault();
        const q = new URLSearchParams();
        for (const n of FILTERS) {
          const v = form.elements[n].value.trim();
          if (v) q.set(n, v);
        }
        navigate('/for-you' + (q.toString() ? '?' + q : ''), true);
      },
    },
    h('label', null, t('rec.players'), field('players', { min: 1, max: 99 })),
    h('label', null, t('rec.maxMinutes'), field('max_minutes', { min: 1, max: 10000 })),
    h('label', null, t('rec.age'), field('min_age', { min: 0, max: 99 })),
    h('button', { type: 'submit', class: 'primary' }, t('shelf.apply')),
  );
  const q = new URLSearchParams();
  for (const n of FILTERS) if (params.get(n)) q.set(n, params.get(n));
  q.set('lang', lang());
  const data = await get('/api/recommendations?' + q);
  const notice = h('p', { class: 'muted', 'data-notice': '', hidden: true });
  const item = (r) => {
    const li = h(
      'li',
      { class: 'card rec', 'data-rec': r.game.id, 'data-name': r.game.name_en || r.game.name_ja, 'data-kind': r.reason.kind },
      h('div', null, link('/games/' + r.game.id, h('strong', null, displayName(r.game)))),
      h('div', { class: 'muted', 'data-reason': '' }, r.reason.text),
      h(
        'button',
        {
          type: 'button',
          'data-dismiss': '',
          onclick: async () => {
            try {
              await post('/api/recommendations/dismiss', { game_id: r.game.id });
              showError(err, null);
              li.remove();
              clear(
                notice,
                t('rec.dismissed', { name: displayName(r.game) }),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'link',
                    'data-undo': r.game.id,
                    onclick: async () => {
                      try {
                        await api('DELETE', '/api/recommendations/dismiss/' + r.game.id);
                        navigate(location.pathname + location.search, true);
                      } catch (x) {
                        showError(err, x);
                      }
                    },
                  },
                  t('rec.undo'),
                ),
              );
              notice.hidden = false;
            } catch (x) {
              showError(err, x);
            }
          },
        },
        t('rec.notInterested'),
      ),
    );
    return li;
  };
  clear(
    main,
    h('h1', null, t('rec.title')),
    h('p', { class: 'muted' }, t('rec.intro')),
    form,
    err,
    notice,
    data.recommendations.length
      ? h('ul', { class: 'recs', 'data-recs': '', 'data-ready': String(data.model.ready) }, data.recommendations.map(item))
      : h('p', { class: 'muted', 'data-recs-empty': '', 'data-ready': String(data.model.ready) }, t('rec.none')),
  );
  return {};
}

// "People who like this also like": filled in when the answer comes; nothing when there
// is nothing to show.
export function similarBlock(gameId) {
  const box = h('section', { 'data-similar-box': '' });
  get('/api/catalog/' + encodeURIComponent(gameId) + '/similar?limit=8')
    .then((data) => {
      if (!data.similar.length) return;
      clear(
        box,
        h('h2', null, t('rec.alsoLike')),
        h(
          'ul',
          { class: 'similar', 'data-similar': '' },
          data.similar.map((s) => h('li', { 'data-similar-game': s.game.id }, ctx.link('/games/' + s.game.id, displayName(s.game)))),
        ),
      );
    })
    .catch(() => {});
  return box;
}
