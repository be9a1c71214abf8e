import type { Action } from '../domain/action.js';
import type { Step } from '../domain/entities.js';
import type { AuditEntry, QueueFilter, QueueItem, ReviewerStats, AgreementStats, ReviewUser } from '../storage/review-queue-repo.js';
import { html, raw, type Html } from './html.js';
import type { RolloutView } from './rollout-view.js';

/**
 * Server-rendered pages of the review app. Every text that came from a model, a query or a user passes through
 * `mask` (the export's PII scrubber unless an admin turned masking off) and through the escaping `html` template.
 */

export interface Viewer {
  name: string;
  role: 'reviewer' | 'admin';
  unmasked: boolean;
}

export interface PageContext {
  viewer: Viewer | null;
  csrf: string;
  nonce: { script: string; style: string };
  mask: (text: string) => string;
}

const STYLE = `
*{box-sizing:border-box}body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2430;background:#f4f5f7}
header{display:flex;gap:16px;align-items:center;padding:8px 16px;background:#1d2430;color:#fff}
header a{color:#cfe0ff}header form{margin-left:auto}main{padding:16px;max-width:1400px}
table{border-collapse:collapse;width:100%;background:#fff}td,th{padding:6px 8px;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:top}
.tag{display:inline-block;padding:1px 6px;border-radius:8px;background:#e8ecf3;margin:1px;font-size:12px}
.ok{color:#0a7a33}.bad{color:#b3261e}.muted{color:#6b7380}.admin{border:2px dashed #b3261e;padding:6px;background:#fff4f2}
.steps{display:flex;flex-direction:column;gap:12px}.step{display:flex;gap:16px;background:#fff;padding:10px;border:2px solid transparent;border-radius:6px}
.step.current{border-color:#3b6fd8}.step.rejected{background:#fff0ef}.shot{position:relative;flex:0 0 auto;width:200px}
.shot img,.shot svg{width:200px;height:auto;display:block}.shot svg{position:absolute;left:0;top:0;height:100%}
.panel{background:#fff;padding:10px;border-radius:6px;margin-bottom:12px}.keys kbd{border:1px solid #aab;border-radius:3px;padding:0 4px;background:#fff}
.bar{position:sticky;top:0;background:#f4f5f7;padding:8px 0;z-index:2;display:flex;gap:8px;align-items:center}
#note{width:420px}.bar form{display:flex;gap:8px;align-items:center;margin:0}button{padding:4px 12px}pre{white-space:pre-wrap;margin:4px 0}
`;

export function layout(ctx: PageContext, title: string, body: Html): string {
  const v = ctx.viewer;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><title>${title} · trajforge review</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style nonce="${ctx.nonce.style}">${raw(STYLE)}</style></head>
<body><header><strong>trajforge review</strong>${
    v
      ? html`<a href="/queue">Queue</a>${v.role === 'admin' ? html`<a href="/admin/stats">Stats</a><a href="/admin/audit">Audit log</a><a href="/admin/users">Users</a>` : ''}
<span class="muted">${v.name} (${v.role})${v.unmasked ? ' · PII UNMASKED' : ''}</span>
<form method="post" action="/logout"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button>Log out</button></form>`
      : ''
  }</header><main>${body}</main></body></html>`}`;
}

export function loginPage(ctx: PageContext, error?: string): string {
  return layout(
    ctx,
    'Log in',
    html`<h1>Log in</h1>${error ? html`<p class="bad" role="alert">${error}</p>` : ''}
<form method="post" action="/login" class="panel" autocomplete="on">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<p><label>Name <input name="name" autocomplete="username" required autofocus></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<button type="submit">Log in</button></form>`,
  );
}

const options = (values: readonly string[], selected: string | undefined): Html[] =>
  values.map((v) => html`<option value="${v}"${selected === v ? raw(' selected') : ''}>${v}</option>`);

export function queuePage(
  ctx: PageContext,
  data: { items: QueueItem[]; filter: QueueFilter; facets: { apps: string[]; kinds: string[]; cycles: string[]; criticVersions: string[] }; message?: string | undefined },
): string {
  const f = data.filter;
  const select = (name: string, label: string, values: string[], selected: string | undefined): Html =>
    html`<label>${label} <select name="${name}"><option value="">all</option>${options(values, selected)}</select></label> `;
  const rows = data.items.map(
    (it) => html`<tr data-rollout="${it.rolloutId}"><td>${it.priority.toFixed(1)}</td><td>${it.app ?? ''}</td>
<td>${ctx.mask(it.instruction ?? '')}<div class="muted">${it.rolloutId}</div></td>
<td>${it.kinds.map((k) => html`<span class="tag">${k}</span>`)}</td><td>${it.accepted ? 'accepted' : 'rejected'}</td>
<td>${it.cycleId}</td><td>${it.claimedBy ?? ''}</td><td>${it.verdicts}</td>
<td><a href="/rollout?id=${encodeURIComponent(it.rolloutId)}">view</a></td></tr>`,
  );
  return layout(
    ctx,
    'Queue',
    html`<h1>Review queue</h1>${data.message ? html`<p class="muted" role="status">${data.message}</p>` : ''}
<form method="post" action="/queue/next" class="panel" id="next">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
${select('app', 'App', data.facets.apps, f.app)}${select('kind', 'Reason', data.facets.kinds, f.kind)}
${select('cycle', 'Cycle', data.facets.cycles, f.cycleId)}${select('critic', 'Critic version', data.facets.criticVersions, f.criticVersion)}
<button type="submit">Start reviewing (<kbd>Enter</kbd>)</button>
<button type="submit" formmethod="get" formaction="/queue">Filter list</button></form>
<p class="keys muted">Keys in a rollout: <kbd>j</kbd>/<kbd>k</kbd> next/previous step, <kbd>a</kbd> accept, <kbd>r</kbd> reject,
<kbd>x</kbd> reject the current step only, <kbd>n</kbd> note, <kbd>s</kbd> skip.</p>
<table><thead><tr><th>Priority</th><th>App</th><th>Instruction</th><th>Reasons</th><th>Critics</th><th>Cycle</th><th>Claimed by</th><th>Verdicts</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>${data.items.length === 0 ? html`<p>No open candidates.</p>` : ''}
<script nonce="${ctx.nonce.script}">${raw(`document.addEventListener('keydown',function(e){if(e.target.closest('select,input,textarea,button'))return;if(e.key==='Enter'){e.preventDefault();document.getElementById('next').requestSubmit();}});`)}</script>`,
  );
}

/** The action drawn over its screenshot (SVG in screenshot pixels): a tap point, a swipe path, typed text. */
function overlay(action: Action | undefined, w: number, h: number): Html {
  if (!action) return html``;
  const r = Math.max(8, Math.round(w / 30));
  const label = (text: string): Html =>
    html`<rect x="4" y="4" width="${w - 8}" height="${Math.round(h / 14)}" rx="6" fill="rgba(29,36,48,.82)"/><text x="12" y="${Math.round(h / 20)}" font-size="${Math.round(w / 18)}" fill="#fff">${text}</text>`;
  let body: Html;
  switch (action.action) {
    case 'click':
    case 'long_press':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
    case 'mouse_move': {
      const [x, y] = action.coordinate;
      body = html`<circle cx="${x}" cy="${y}" r="${r}" fill="rgba(255,64,64,.35)" stroke="#ff2d2d" stroke-width="3"/>${
        action.action === 'long_press' ? html`<circle cx="${x}" cy="${y}" r="${r * 1.7}" fill="none" stroke="#ff2d2d" stroke-width="2" stroke-dasharray="6 4"/>` : ''
      }`;
      break;
    }
    case 'swipe':
    case 'drag': {
      const [x1, y1] = action.coordinate;
      const [x2, y2] = action.coordinate2;
      body = html`<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#ff2d2d"/></marker></defs>
<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#ff2d2d" stroke-width="5" marker-end="url(#arrow)"/><circle cx="${x1}" cy="${y1}" r="${r / 2}" fill="#ff2d2d"/>`;
      break;
    }
    default:
      body = html``;
  }
  return html`<svg viewBox="0 0 ${w} ${h}" aria-hidden="true" data-action="${action.action}">${body}${actionLabel(action) ? label(actionLabel(action)!) : ''}</svg>`;
}

/** The action as a short text (typed text included); undefined for pure pointer actions. */
function actionLabel(a: Action): string | undefined {
  switch (a.action) {
    case 'type':
      return `type "${a.text}"`;
    case 'answer':
      return `answer "${a.text}"`;
    case 'key':
      return `key ${'text' in a ? a.text : a.keys.join('+')}`;
    case 'open':
      return `open ${a.text}`;
    case 'system_button':
      return `button ${a.button}`;
    case 'terminate':
      return `terminate: ${a.status}`;
    case 'wait':
      return `wait ${a.time}s`;
    default:
      return undefined;
  }
}

/** Screenshot URL; unmasked views get their own URL so a cached masked image is never shown as unmasked (or back). */
const blobUrl = (ctx: PageContext, key: string): string => (ctx.viewer?.unmasked ? `/blob/${key}?u=1` : `/blob/${key}`);

function stepCard(ctx: PageContext, view: RolloutView, step: Step, rejected: boolean): Html {
  const sv = view.stepVerdicts.get(step.index);
  const maskedAction = step.action ? maskAction(step.action, ctx.mask) : undefined;
  return html`<section class="step${rejected ? ' rejected' : ''}" data-idx="${step.index}" id="step-${step.index}">
<div class="shot"><img src="${blobUrl(ctx, step.before.screenshotKey)}" width="${step.before.width}" height="${step.before.height}" alt="step ${step.index} screen" ${
    step.index > 2 ? raw('loading="lazy"') : ''
  } decoding="async">${overlay(maskedAction, step.before.width, step.before.height)}</div>
<div><h3>Step ${step.index}${rejected ? html` <span class="bad step-flag">step rejected</span>` : html` <span class="bad step-flag"></span>`}</h3>
<p><strong>Action</strong> <code>${maskedAction ? JSON.stringify(maskedAction) : '(none)'}</code>${step.error ? html` <span class="bad">${step.error.kind}: ${ctx.mask(step.error.message)}</span>` : ''}</p>
<p><strong>Reasoning</strong></p><pre>${ctx.mask(step.reasoning)}</pre>
<p><strong>Conclusion</strong> ${ctx.mask(step.conclusion)}</p>
${
  sv
    ? html`<p><strong>Step critic</strong> <span class="${sv.annotation === 'HARMFUL' ? 'bad' : sv.annotation === 'GOOD' ? 'ok' : 'muted'}">${sv.annotation}</span>
 (score ${sv.score.toFixed(2)}) — ${ctx.mask(sv.summary)}</p><details><summary>analysis</summary><pre>${ctx.mask(sv.analysis)}</pre></details>`
    : html`<p class="muted">No step-critic verdict.</p>`
}</div></section>`;
}

function maskAction(a: Action, mask: (s: string) => string): Action {
  return 'text' in a && typeof a.text === 'string' ? ({ ...a, text: mask(a.text) } as Action) : a;
}

const KEY_SCRIPT = `(function(){
var steps=[].slice.call(document.querySelectorAll('.step'));var cur=0;var form=document.getElementById('verdict');
var marks=document.getElementById('steps');var rejected=new Set((marks.value||'').split(',').filter(Boolean));
function sel(i,quiet){if(!steps.length)return;cur=Math.max(0,Math.min(steps.length-1,i));steps.forEach(function(s,j){s.classList.toggle('current',j===cur)});
if(!quiet)steps[cur].scrollIntoView({block:'center'});document.getElementById('cur').textContent=steps[cur].dataset.idx;}
function toggle(){var s=steps[cur];if(!s)return;var k=s.dataset.idx;if(rejected.has(k))rejected.delete(k);else rejected.add(k);
s.classList.toggle('rejected',rejected.has(k));s.querySelector('.step-flag').textContent=rejected.has(k)?'step rejected':'';marks.value=[].concat(Array.from(rejected)).join(',');}
function decide(v){document.getElementById('v').value=v;form.requestSubmit();}
document.addEventListener('keydown',function(e){var t=e.target;if(t.closest&&t.closest('textarea,input,select')){if(e.key==='Escape')t.blur();else if(e.key==='Enter'&&t.id==='note')e.preventDefault();return;}
if(e.ctrlKey||e.metaKey||e.altKey)return;var k=e.key;
if(k==='j'||k==='ArrowDown'){e.preventDefault();sel(cur+1);}else if(k==='k'||k==='ArrowUp'){e.preventDefault();sel(cur-1);}
else if(k==='a'){decide('accept');}else if(k==='r'){decide('reject');}else if(k==='x'){toggle();}
else if(k==='n'){e.preventDefault();document.getElementById('note').focus();}else if(k==='s'){document.getElementById('skip').requestSubmit();}});
sel(0,true);})();`;

export function rolloutPage(ctx: PageContext, view: RolloutView, opts: { mine: RolloutView['verdicts'][number] | undefined }): string {
  const v = ctx.viewer!;
  const r = view.rollout;
  const rejectedSteps = new Set(opts.mine?.rejectedSteps ?? []);
  const channels = view.channels.map(
    (c) => html`<tr><td>${c.channel}</td><td class="${c.correct ? 'ok' : 'bad'}">${c.correct ? 'Correct' : 'Incorrect'}</td>
<td>${Array.isArray(c.votes) ? (c.votes as unknown[]).map((x) => (x === true ? '✔' : x === false ? '✘' : String(x))).join(' ') : ''}</td>
<td>${ctx.mask(c.reason)}</td></tr>`,
  );
  const claimedByOther = view.claimedBy !== null && view.claimedBy !== v.name;
  const otherVerdicts = v.role === 'admin' ? view.verdicts.filter((x) => x.reviewer !== v.name) : [];
  return layout(
    ctx,
    `Rollout ${r.id}`,
    html`<div class="panel"><h1>${ctx.mask(view.instruction)}</h1>
<p class="muted">rollout ${r.id} · app ${view.app ?? '?'} · cycle ${r.cycleId} · critic ${view.criticVersion ?? '?'} · model ${r.model.name}@${r.model.version}
 · mode ${r.agentMode} · status ${r.status}${r.outcome !== undefined ? ` (${ctx.mask(r.outcome)})` : ''} · ${r.steps.length} steps</p>
<p>${view.candidates.map((c) => html`<span class="tag" title="${ctx.mask(c.reason)}">${c.kind} · ${c.priority.toFixed(1)} · ${c.status}</span>`)}</p>
${
  v.role === 'admin'
    ? html`<p class="admin" data-admin-only="ground-truth"><strong>ADMIN ONLY — checker ground truth</strong> (never shown to reviewers, agents or critics):
 ${r.groundTruth === undefined ? 'none recorded' : r.groundTruth ? 'success' : 'failure'}</p>`
    : ''
}
<table><thead><tr><th>Channel</th><th>Verdict</th><th>Votes</th><th>Reason</th></tr></thead><tbody>${channels}</tbody></table>
<p>Learned channel probability of Correct: <strong id="learned-p">${view.learnedProbability === null ? 'n/a' : view.learnedProbability.toFixed(3)}</strong></p>
${opts.mine ? html`<p>Your verdict (${opts.mine.decidedAt}): <strong>${opts.mine.verdict ? 'accept' : 'reject'}</strong>${opts.mine.note ? html` — ${ctx.mask(opts.mine.note)}` : ''}</p>` : ''}
${otherVerdicts.map((o) => html`<p class="muted">${o.reviewer}: ${o.verdict ? 'accept' : 'reject'} (${o.decidedAt})${o.note ? html` — ${ctx.mask(o.note)}` : ''}</p>`)}
${claimedByOther ? html`<p class="bad" role="alert">Claimed by ${view.claimedBy}; you can look, not decide.</p>` : ''}
</div>
<div class="bar"><form method="post" action="/rollout/verdict" id="verdict">
<input type="hidden" name="_csrf" value="${ctx.csrf}"><input type="hidden" name="id" value="${r.id}">
<input type="hidden" name="verdict" id="v" value=""><input type="hidden" name="steps" id="steps" value="${[...rejectedSteps].join(',')}">
<button type="submit" data-v="accept" id="accept-btn">Accept (<kbd>a</kbd>)</button> <button type="submit" data-v="reject" id="reject-btn">Reject (<kbd>r</kbd>)</button>
<label>Note (<kbd>n</kbd>) <input name="note" id="note" maxlength="4000" value="${opts.mine?.note ?? ''}"></label></form>
<form method="post" action="/rollout/skip" id="skip"><input type="hidden" name="_csrf" value="${ctx.csrf}"><input type="hidden" name="id" value="${r.id}">
<button type="submit">Skip (<kbd>s</kbd>)</button></form><span class="muted">step <span id="cur">0</span> · <kbd>j</kbd>/<kbd>k</kbd> steps · <kbd>x</kbd> reject step</span></div>
<div class="steps">${r.steps.map((s) => stepCard(ctx, view, s, rejectedSteps.has(s.index)))}</div>
${r.steps.length > 0 && r.steps.at(-1)!.after ? html`<div class="panel"><h3>Final screen</h3><div class="shot"><img src="${blobUrl(ctx, r.steps.at(-1)!.after!.screenshotKey)}" alt="final screen" loading="lazy"></div></div>` : ''}
<script nonce="${ctx.nonce.script}">${raw(`document.querySelectorAll('#verdict button[data-v]').forEach(function(b){b.addEventListener('click',function(){document.getElementById('v').value=b.dataset.v;});});`)}${raw(KEY_SCRIPT)}</script>`,
  );
}

export function statsPage(ctx: PageContext, stats: { reviewers: ReviewerStats[]; agreement: AgreementStats }): string {
  const a = stats.agreement;
  return layout(
    ctx,
    'Stats',
    html`<h1>Reviewer throughput and agreement</h1><table><thead><tr><th>Reviewer</th><th>Decisions</th><th>Rollouts</th><th>Accepted</th><th>Skips</th><th>Per hour</th><th>Median s/item</th></tr></thead><tbody>
${stats.reviewers.map(
  (r) => html`<tr><td>${r.reviewer}</td><td>${r.decisions}</td><td>${r.rollouts}</td><td>${r.accepted}</td><td>${r.skips}</td><td>${r.perHour === null ? '–' : r.perHour.toFixed(0)}</td><td>${r.medianSeconds === null ? '–' : r.medianSeconds.toFixed(1)}</td></tr>`,
)}</tbody></table>
<p id="agreement">Agreement: ${a.rate === null ? 'no item has two reviewers yet' : `${(100 * a.rate).toFixed(1)}% of ${a.pairs} reviewer pairs on ${a.items} items`}</p>`,
  );
}

export function auditPage(ctx: PageContext, entries: AuditEntry[]): string {
  return layout(
    ctx,
    'Audit log',
    html`<h1>Audit log</h1><table><thead><tr><th>When</th><th>Who</th><th>What</th><th>Rollout</th><th>Details</th></tr></thead><tbody>
${entries.map((e) => html`<tr><td>${e.at}</td><td>${e.reviewer}</td><td>${e.action}</td><td>${e.rolloutId ?? ''}</td><td><code>${ctx.mask(JSON.stringify(e.details))}</code></td></tr>`)}
</tbody></table>`,
  );
}

export function usersPage(ctx: PageContext, users: ReviewUser[], message?: string): string {
  return layout(
    ctx,
    'Users',
    html`<h1>Users</h1>${message ? html`<p role="status">${message}</p>` : ''}<table><thead><tr><th>Name</th><th>Role</th><th>Created</th></tr></thead><tbody>
${users.map((u) => html`<tr><td>${u.name}</td><td>${u.role}</td><td>${u.createdAt}</td></tr>`)}</tbody></table>
<form method="post" action="/admin/unmask" class="panel"><input type="hidden" name="_csrf" value="${ctx.csrf}">
<input type="hidden" name="on" value="${ctx.viewer?.unmasked ? '0' : '1'}">
<button type="submit">${ctx.viewer?.unmasked ? 'Mask PII again' : 'Show unmasked text (audited)'}</button></form>
<p class="muted">Create accounts with <code>trajforge review user add NAME --role reviewer|admin</code>.</p>`,
  );
}
