// Reviews (レビュー) and rule notes (ルール解説) on a game's page, with the Nice! (ナイス!)
// button; and the catalog's admin page: adding a game, proposing a correction, the queue
// of proposed changes and the queue of reported reviews. Every piece of user text goes in
// as a text node (dom.js `h`), never as HTML.
import { h, clear } from './dom.js';
import { get, post, api } from './api.js';
import { t, lang } from './i18n.js';

const PAGE = 20;

function day(unix) {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

function gameName(g) {
  if (lang() === 'ja') return g.name_ja || g.name_en;
  return g.name_en || g.name_ja;
}

// ---- a game's reviews ----

// The reviews section of game `g`'s page. ctx: {app, link, errorBox, showError}.
export function reviewSection(ctx, g) {
  const { app, errorBox, showError } = ctx;
  const me = app.me && !app.me.guest ? app.me : null;
  const state = { kind: '', order: 'newest', shown: 0 };
  const err = errorBox();
  const list = h('ul', { class: 'reviews', 'data-review-list': '' });
  const more = h('button', { type: 'button', 'data-more': '', hidden: true, onclick: () => load(false) }, t('reviews.more'));
  const total = h('p', { class: 'muted', 'data-review-total': '' });

  const choice = (group, value, label) =>
    h(
      'button',
      {
        type: 'button',
        ['data-' + group]: value,
        'aria-pressed': String(state[group] === value),
        onclick: (ev) => {
          state[group] = value;
          for (const b of ev.target.parentNode.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b === ev.target));
          load(true);
        },
      },
      label,
    );
  const controls = h(
    'div',
    { class: 'row review-controls' },
    h('span', { class: 'row', role: 'group', 'aria-label': t('reviews.kind') }, choice('kind', '', t('reviews.all')), choice('kind', 'review', t('reviews.kind.review')), choice('kind', 'rules', t('reviews.kind.rules'))),
    h('span', { class: 'row', role: 'group', 'aria-label': t('reviews.order') }, choice('order', 'newest', t('reviews.newest')), choice('order', 'liked', t('reviews.liked'))),
  );

  function item(r) {
    const mine = me && me.id === r.author.id;
    const li = h('li', { class: 'review card', 'data-review': r.id, 'data-kind': r.kind });
    const likes = h('span', { 'data-likes': '' }, String(r.likes));
    let nice;
    if (me && !mine) {
      nice = h(
        'button',
        {
          type: 'button',
          class: 'nice',
          'data-nice': '',
          'aria-pressed': String(r.liked),
          onclick: async () => {
            const on = nice.getAttribute('aria-pressed') !== 'true';
            nice.disabled = true;
            try {
              const n = await api(on ? 'POST' : 'DELETE', `/api/reviews/${r.id}/nice`);
              nice.setAttribute('aria-pressed', String(n.liked));
              likes.textContent = String(n.likes);
              showError(err, null);
            } catch (x) {
              showError(err, x);
            } finally {
              nice.disabled = false;
            }
          },
        },
        t('reviews.nice'),
        ' ',
        likes,
      );
    } else {
      nice = h('span', { class: 'nice muted', 'data-nice-count': '' }, t('reviews.nice'), ' ', likes);
    }
    const body = h('div', { class: 'review-body' });
    const showBody = (rv) =>
      clear(
        body,
        rv.title ? h('h3', { class: 'review-title', 'data-review-title': '' }, rv.title) : null,
        h('p', { class: 'review-text', 'data-review-text': '' }, rv.text),
      );
    showBody(r);
    const meta = h(
      'p',
      { class: 'muted review-meta' },
      h('span', { class: 'badge' }, t('reviews.kind.' + r.kind)),
      ' ',
      h('span', { 'data-author': '' }, r.author.name),
      ' · ',
      day(r.created_at),
      r.edited ? ' · ' + t('reviews.edited') : '',
    );
    const actions = h('div', { class: 'row review-actions' }, nice);
    if (mine) {
      actions.append(
        h('button', { type: 'button', 'data-edit': '', onclick: () => edit() }, t('reviews.edit')),
        h(
          'button',
          {
            type: 'button',
            'data-delete': '',
            onclick: async () => {
              if (!confirm(t('reviews.deleteConfirm'))) return;
              try {
                await api('DELETE', `/api/reviews/${r.id}`);
                li.remove();
              } catch (x) {
                showError(err, x);
              }
            },
          },
          t('reviews.delete'),
        ),
      );
    } else if (me) {
      actions.append(h('button', { type: 'button', class: 'link', 'data-report': '', onclick: () => report() }, t('reviews.report')));
    }
    function edit() {
      const f = h(
        'form',
        {
          'data-form': 'edit-review',
          onsubmit: async (ev) => {
            ev.preventDefault();
            try {
              const rv = await api('PUT', `/api/reviews/${r.id}`, { title: f.title.value, text: f.text.value });
              Object.assign(r, rv);
              showBody(rv);
              showError(err, null);
            } catch (x) {
              showError(err, x);
            }
          },
        },
        h('label', null, t('reviews.title'), h('input', { name: 'title', maxlength: 100, value: r.title })),
        h('label', null, t('reviews.text'), h('textarea', { name: 'text', maxlength: 10000, required: true, rows: 5 }, r.text)),
        h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, t('game.save')), h('button', { type: 'button', onclick: () => showBody(r) }, t('reviews.cancel'))),
      );
      clear(body, f);
    }
    function report() {
      if (li.querySelector('[data-form=report]')) return;
      const f = h(
        'form',
        {
          class: 'row',
          'data-form': 'report',
          onsubmit: async (ev) => {
            ev.preventDefault();
            try {
              await post(`/api/reviews/${r.id}/reports`, { reason: f.reason.value });
              clear(f, h('span', { class: 'muted', 'data-reported': '' }, t('reviews.reported')));
              showError(err, null);
            } catch (x) {
              showError(err, x);
            }
          },
        },
        h('input', { name: 'reason', maxlength: 1000, required: true, placeholder: t('reviews.reason'), 'aria-label': t('reviews.reason') }),
        h('button', { type: 'submit' }, t('reviews.send')),
      );
      li.append(f);
    }
    li.append(body, meta, actions);
    return li;
  }

  async function load(reset) {
    if (reset) state.shown = 0;
    const q = new URLSearchParams({ game: String(g.id), order: state.order, limit: String(PAGE), offset: String(state.shown) });
    if (state.kind) q.set('kind', state.kind);
    try {
      const data = await get('/api/reviews?' + q);
      if (reset) clear(list);
      for (const r of data.reviews) list.append(item(r));
      state.shown += data.reviews.length;
      total.textContent = data.total ? t('reviews.total', { n: data.total }) : t('reviews.none');
      total.dataset.reviewTotal = String(data.total);
      more.hidden = state.shown >= data.total;
      showError(err, null);
    } catch (x) {
      showError(err, x);
    }
  }

  let form = null;
  if (me) {
    form = h(
      'form',
      {
        class: 'card',
        'data-form': 'review',
        onsubmit: async (ev) => {
          ev.preventDefault();
          const f = ev.target;
          try {
            await post('/api/reviews', { game: String(g.id), kind: f.kind.value, title: f.title.value, text: f.text.value });
            f.reset();
            showError(err, null);
            await load(true);
          } catch (x) {
            showError(err, x);
          }
        },
      },
      h('h3', null, t('reviews.write')),
      h('label', null, t('reviews.kind'), h('select', { name: 'kind' }, h('option', { value: 'review' }, t('reviews.kind.review')), h('option', { value: 'rules' }, t('reviews.kind.rules')))),
      h('label', null, t('reviews.title'), h('input', { name: 'title', maxlength: 100 })),
      h('label', null, t('reviews.text'), h('textarea', { name: 'text', maxlength: 10000, required: true, rows: 5 })),
      h('p', { class: 'hint' }, t('reviews.limits')),
      h('button', { type: 'submit', class: 'primary' }, t('reviews.post')),
    );
  }
  load(true);
  return h('section', { class: 'reviews-section', 'data-reviews': '' }, h('h2', null, t('reviews.title.section')), controls, total, err, list, more, form);
}

// ---- the catalog's admin page ----

const NUMBER_FIELDS = ['min_players', 'max_players', 'min_minutes', 'max_minutes', 'min_age', 'year', 'bgg_id'];
const LIST_FIELDS = ['designers', 'publishers'];

// The fields of a game as inputs; `fieldsOf(form)` reads the filled ones back.
function gameInputs() {
  return [
    h('label', null, t('admin.f.name_ja'), h('input', { name: 'name_ja', maxlength: 200 })),
    h('label', null, t('admin.f.name_en'), h('input', { name: 'name_en', maxlength: 200 })),
    h('label', null, t('admin.f.reading_ja'), h('input', { name: 'reading_ja', maxlength: 200 })),
    h(
      'div',
      { class: 'row' },
      NUMBER_FIELDS.map((k) => h('label', null, t('admin.f.' + k), h('input', { name: k, type: 'number', min: k === 'min_age' ? 0 : 1, class: 'num' }))),
    ),
    LIST_FIELDS.map((k) => h('label', null, t('admin.f.' + k), h('input', { name: k, placeholder: t('admin.commas') }))),
  ];
}

function fieldsOf(f) {
  const out = {};
  for (const k of ['name_ja', 'name_en', 'reading_ja']) if (f[k].value.trim()) out[k] = f[k].value.trim();
  for (const k of NUMBER_FIELDS) if (f[k].value !== '') out[k] = Number(f[k].value);
  for (const k of LIST_FIELDS) {
    const items = f[k].value.split(/[,、]/).map((s) => s.trim()).filter(Boolean);
    if (items.length) out[k] = items;
  }
  return out;
}

function fieldsText(fields) {
  return Object.entries(fields || {})
    .map(([k, v]) => k + ': ' + (Array.isArray(v) ? v.join(', ') : String(v)))
    .join('; ');
}

// ctx: {app, main, link, errorBox, showError}
export async function adminPage(ctx) {
  const { main, link, errorBox, showError } = ctx;
  const changes = await get('/api/catalog/changes');
  const admin = changes.admin;
  const catalog = await get('/api/catalog?limit=2000&sort=' + (lang() === 'ja' ? 'name_ja' : 'name_en'));

  const addErr = errorBox();
  const addDone = h('p', { class: 'muted', 'data-added': '', hidden: true });
  const addForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'add-game',
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const res = await post('/api/catalog', fieldsOf(ev.target));
          ev.target.reset();
          showError(addErr, null);
          addDone.hidden = false;
          clear(addDone, t(res.game.status === 'approved' ? 'admin.addedListed' : 'admin.addedPending', { name: gameName(res.game) }), ' ', link('/games/' + res.game.id, t('admin.open')));
          await drawChanges();
        } catch (x) {
          showError(addErr, x);
        }
      },
    },
    h('h2', null, t('admin.add')),
    gameInputs(),
    addErr,
    h('button', { type: 'submit', class: 'primary' }, t('admin.addSubmit')),
    addDone,
  );

  const fixErr = errorBox();
  const fixDone = h('p', { class: 'muted', 'data-proposed': '', hidden: true });
  const fixForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'correct',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        try {
          const change = await post(`/api/catalog/${encodeURIComponent(f.game.value)}/corrections`, fieldsOf(f));
          f.reset();
          showError(fixErr, null);
          fixDone.hidden = false;
          fixDone.textContent = t(change.status === 'approved' ? 'admin.corrected' : 'admin.proposed', { name: change.game_name });
          await drawChanges();
        } catch (x) {
          showError(fixErr, x);
        }
      },
    },
    h('h2', null, t('admin.correct')),
    h('label', null, t('plays.game'), h('select', { name: 'game', required: true }, catalog.games.map((g) => h('option', { value: String(g.id) }, gameName(g))))),
    h('p', { class: 'hint' }, t('admin.correctHint')),
    gameInputs(),
    fixErr,
    h('button', { type: 'submit', class: 'primary' }, t('admin.correctSubmit')),
    fixDone,
  );

  const queueErr = errorBox();
  const queue = h('div', { 'data-changes': '' });
  async function drawChanges() {
    const data = await get('/api/catalog/changes');
    clear(
      queue,
      data.changes.length
        ? h(
            'ul',
            { class: 'queue' },
            data.changes.map((c) =>
              h(
                'li',
                { class: 'card', 'data-change': c.id },
                h('strong', null, c.game_name),
                ' ',
                h('span', { class: 'badge' }, t('admin.kind.' + c.kind)),
                h('p', { class: 'fields' }, fieldsText(c.fields)),
                h('p', { class: 'muted' }, c.author ? c.author.name : '', ' · ', day(c.created_at)),
                admin
                  ? h(
                      'div',
                      { class: 'row' },
                      ['approve', 'reject'].map((verb) =>
                        h(
                          'button',
                          {
                            type: 'button',
                            class: verb === 'approve' ? 'primary' : '',
                            ['data-' + verb]: c.id,
                            onclick: async () => {
                              try {
                                await post(`/api/catalog/changes/${c.id}/${verb}`);
                                showError(queueErr, null);
                                await drawChanges();
                              } catch (x) {
                                showError(queueErr, x);
                              }
                            },
                          },
                          t('admin.' + verb),
                        ),
                      ),
                    )
                  : null,
              ),
            ),
          )
        : h('p', { class: 'muted', 'data-no-changes': '' }, t('admin.noChanges')),
    );
  }
  await drawChanges();

  let reports = null;
  if (admin) {
    const repErr = errorBox();
    const box = h('div', { 'data-report-queue': '' });
    let state = 'open';
    const drawReports = async () => {
      const data = await get('/api/reviews/reports?state=' + state);
      clear(
        box,
        data.items.length
          ? h(
              'ul',
              { class: 'queue' },
              data.items.map(({ review: r, reports: rs }) =>
                h(
                  'li',
                  { class: 'card', 'data-reported-review': r.id },
                  link('/games/' + r.game.id, gameName(r.game)),
                  ' ',
                  h('span', { class: 'badge' }, t('reviews.kind.' + r.kind)),
                  ' ',
                  h('span', { class: 'muted' }, r.author.name),
                  r.title ? h('h3', { class: 'review-title' }, r.title) : null,
                  h('p', { class: 'review-text' }, r.text),
                  h(
                    'ul',
                    { class: 'reports' },
                    rs.map((p) => h('li', { 'data-report-reason': '' }, h('strong', null, p.reporter.name), ': ', p.reason, ' ', h('span', { class: 'muted' }, t('admin.report.' + p.status)))),
                  ),
                  h(
                    'div',
                    { class: 'row' },
                    (state === 'open' ? ['hide', 'restore'] : ['restore']).map((verb) =>
                      h(
                        'button',
                        {
                          type: 'button',
                          ['data-' + verb]: r.id,
                          class: verb === 'hide' ? 'primary' : '',
                          onclick: async () => {
                            try {
                              await post(`/api/reviews/${r.id}/${verb}`);
                              showError(repErr, null);
                              await drawReports();
                            } catch (x) {
                              showError(repErr, x);
                            }
                          },
                        },
                        t(verb === 'hide' ? 'admin.hide' : state === 'open' ? 'admin.keep' : 'admin.restore'),
                      ),
                    ),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted', 'data-no-reports': '' }, t('admin.noReports')),
      );
    };
    const tab = (value, label) =>
      h(
        'button',
        {
          type: 'button',
          'data-report-state': value,
          'aria-pressed': String(state === value),
          onclick: async (ev) => {
            state = value;
            for (const b of ev.target.parentNode.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b === ev.target));
            await drawReports();
          },
        },
        label,
      );
    await drawReports();
    reports = h('section', null, h('h2', null, t('admin.reports')), h('div', { class: 'row', role: 'group' }, tab('open', t('admin.reportsOpen')), tab('hidden', t('admin.reportsHidden'))), repErr, box);
  }

  clear(
    main,
    h('h1', null, t('admin.title')),
    h('p', { class: 'muted' }, admin ? t('admin.youAreAdmin') : t('admin.youPropose')),
    h('section', null, h('h2', null, admin ? t('admin.queue') : t('admin.mine')), queueErr, queue),
    reports,
    h('div', { class: 'cards' }, addForm, fixForm),
  );
  return {};
}
