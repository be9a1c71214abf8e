import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  active,
  CARE_ACTIONS,
  cleanText,
  dateOf,
  dayLabel,
  dayOfMonth,
  FEED_OPTIONS,
  feedLabel,
  LIGHTS,
  logsOf,
  monthShort,
  NAME_MAX,
  nextFeed,
  nextWater,
  OWNER,
  OWNER_EMAIL,
  plantErrors,
  plantOf,
  relDays,
  REMINDER_TIME,
  REMOVE_REASONS,
  REMOVE_REASON_NAMES,
  ROOMS,
  shortDay,
  SPECIES,
  speciesInfo,
  WATER_OPTIONS,
  waterLabel,
  WHEN,
  type CareAction,
  type CareLog,
  type Plant,
  type PlantsState,
} from './state.js';

const ACCENT = '#2b7a4b';
const SOFT = '#dff3e6';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f7f2}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #d8e4da}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5f6f63}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#173d26}
.hello .s{font-size:16px;font-weight:normal;color:#51645a;margin-top:4px}
.sub{padding:12px 16px 0;font-size:15px;color:#51645a}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #d8e4da}
.card h2{margin:0 0 6px;font-size:21px}
.card .d{font-size:16px;color:#3f5146;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.gone{background:#f8f9fa;border-color:#dee2e6}
.card.hero2{background:${ACCENT};border-color:${ACCENT};color:#fff}
.card.hero2 .d{color:#d3f0dc}
.card.hero2 .lbl{color:#b2f2bb}
.leaf{flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-weight:bold;border-radius:16px}
.task{display:flex;gap:12px;align-items:center;min-height:76px;padding:10px 12px 10px 16px;background:#fff;border-bottom:1px solid #e4ece6}
.task a{flex:1;display:flex;gap:12px;align-items:center;min-width:0}
.task .info{flex:1;min-width:0}
.task .n{font-size:18px;font-weight:bold}
.task .s{font-size:15px;color:#51645a;margin-top:2px}
.task .s.late{color:#c92a2a;font-weight:bold}
.task .done{flex:none;height:44px;padding:0 14px;border-radius:22px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;background:#fff}
.up{display:flex;justify-content:space-between;gap:12px;padding:13px 16px;background:#fff;border-bottom:1px solid #e4ece6;font-size:17px}
.up .w{color:#51645a;font-size:15px;text-align:right}
.room{display:flex;justify-content:space-between;padding:16px 16px 6px;font-size:16px;font-weight:bold;color:${ACCENT}}
.room span{color:#6c7d72;font-weight:normal}
.pl{display:flex;gap:14px;align-items:center;min-height:80px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4ece6}
.pl .info{flex:1;min-width:0}
.pl .n{font-size:18px;font-weight:bold}
.pl .s{font-size:15px;color:#51645a;margin-top:2px}
.pl .go{font-size:24px;color:#9fb2a5}
.pl.off .n{color:#868e96}
.tag{display:inline-block;padding:2px 9px;border-radius:10px;font-size:13px;font-weight:bold;background:${SOFT};color:#1f6b3e}
.tag.due{background:#e7f5ff;color:#1864ab}
.tag.late{background:#ffe3e3;color:#c92a2a}
.tag.grey{background:#f1f3f5;color:#5b6878}
.top{display:flex;gap:16px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e4ece6}
.top h2{margin:0 0 4px;font-size:24px}
.top .s{font-size:16px;color:#51645a;margin-top:3px}
.top .lat{font-style:italic}
.stat{display:flex;gap:10px;margin:12px}
.stat>div{flex:1;background:#fff;border:1px solid #d8e4da;border-radius:14px;padding:12px}
.stat .k{font-size:13px;font-weight:bold;text-transform:uppercase;letter-spacing:.3px;color:#6c7d72}
.stat .v{font-size:18px;font-weight:bold;margin-top:4px}
.stat .v.late{color:#c92a2a}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e4ece6;font-size:17px;width:100%;text-align:left}
.kv .k{color:#51645a;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv .go{color:#9fb2a5;font-size:22px;margin-left:6px}
.hist{display:flex;gap:12px;align-items:center;padding:11px 16px;background:#fff;border-bottom:1px solid #e4ece6}
.hist .dot{width:34px;height:34px;border-radius:17px;flex:none;display:flex;align-items:center;justify-content:center;font-size:14px;font-weight:bold;color:#fff}
.hist .info{flex:1}
.hist .t{font-size:17px;font-weight:bold}
.hist .s{font-size:14px;color:#51645a;margin-top:2px}
.hist.new{background:#f4fbf6}
.intro{padding:14px 16px 4px;font-size:16px;color:#3f5146}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.primary[disabled]{background:#9cc7ab!important}
.srow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4ece6;width:100%;text-align:left}
.srow .info{flex:1;min-width:0}
.srow .t{font-size:18px}
.srow .s{font-size:15px;color:#51645a;margin-top:3px}
.srow .v{font-size:16px;font-weight:bold;color:${ACCENT}}
.srow .go{font-size:22px;color:#9fb2a5}
.switch{flex:none;width:52px;height:30px;border-radius:15px;background:#adb5bd;position:relative}
.switch:after{content:'';position:absolute;top:3px;left:3px;width:24px;height:24px;border-radius:12px;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.3)}
.switch.on{background:${ACCENT}}
.switch.on:after{left:25px}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:58px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4ece6;text-align:left}
.opt .info{flex:1;min-width:0}
.opt .t{font-size:17px;font-weight:bold}
.opt .s{font-size:14px;color:#51645a;margin-top:2px}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.opt.sel{background:#f4fbf6}
.dialog .opt{padding:10px 4px;border-bottom:1px solid #f1f3f5;background:#fff}
.dialog .err,.sheet .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
.dialog.tall{padding-bottom:6px}
.dialog .search{width:100%;height:46px;border:2px solid #cfd4da;border-radius:23px;padding:0 16px;font-size:17px;margin-bottom:6px;outline:none}
.dialog .search:focus{border-color:${ACCENT}}
.splist{max-height:46vh;overflow-y:auto}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:50px;border:2px solid #cfd4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.pick.unset{color:#868e96}
.field .hint{font-size:15px;color:#51645a;margin-top:6px}
.field .chips{gap:8px}
.field .chip{min-height:42px}
.field .opt{border:2px solid #e4ece6;border-radius:10px;margin-bottom:8px;min-height:54px}
.field .opt.sel{border-color:${ACCENT}}
.field.bad .pick{border-color:#c92a2a}
.care{padding:10px 18px 16px!important}
.care h2{margin:8px 0 4px;font-size:21px}
.care .q{font-size:16px;font-weight:bold;color:#2b2f36;margin:14px 0 8px}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.sheet.care button{display:flex;align-items:center;justify-content:center;text-align:center;width:auto}
.care .chips button{height:44px;padding:0 16px}
.care .seg{display:flex;gap:8px}
.care .seg button{flex:1;height:46px;border:2px solid #cfd4da;border-radius:10px;font-size:16px;font-weight:bold;background:#fff;padding:0}
.care .seg button.on{border-color:${ACCENT};background:${SOFT};color:#1f6b3e}
.care .acts{display:flex;gap:10px;margin-top:10px}
.care .acts button{flex:1;height:50px;border-radius:25px;font-size:18px;font-weight:bold;padding:0}
.care .acts .ghost{border:2px solid #cfd4da;color:#3f5146}
.care .acts .go{background:${ACCENT};color:#fff}
.care .acts .go[disabled]{background:#9cc7ab}
.toast button{color:#b2f2bb;font-weight:bold;font-size:17px;padding:4px 8px;margin-left:12px}
.toast{display:flex;justify-content:space-between;align-items:center}
`;

type Tab = 'today' | 'plants' | 'profile';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'today', label: 'Today', glyph: '&#9728;', href: `${ctx.base}/` },
      { id: 'plants', label: 'My plants', glyph: '&#10047;', href: `${ctx.base}/plants` },
      { id: 'profile', label: 'Profile', glyph: '&#9786;', href: `${ctx.base}/profile` },
    ],
    on,
  );

const menu = (ctx: AppContext, extra: readonly { label: string; target: string }[] = []): string =>
  overflowMenu([...extra.map((e) => [e.label, e.target] as const), ['Add plant', `${ctx.base}/add`], ['My plants', `${ctx.base}/plants`], ['Profile', `${ctx.base}/profile`]]);

const ROOM_COLORS: Readonly<Record<string, string>> = {
  'Living room': '#2b7a4b',
  Kitchen: '#5c940d',
  Bedroom: '#1c7ed6',
  Bathroom: '#0c8599',
  Office: '#7048e8',
  Balcony: '#e8590c',
};
const leaf = (p: Plant, size = 48): string =>
  `<div class="leaf" aria-hidden="true" style="background:${ROOM_COLORS[p.room] ?? ACCENT};width:${size}px;height:${size}px;font-size:${Math.round(size * 0.42)}px;border-radius:${Math.round(size / 3)}px">${esc(p.name[0]?.toUpperCase() ?? '?')}</div>`;
const ACTION_COLORS: Readonly<Record<CareAction, string>> = { Watered: '#1c7ed6', Fertilized: '#e67700', Misted: '#0c8599', Repotted: '#8d5524', Pruned: '#5c940d' };
const VERB: Readonly<Record<CareAction, string>> = { Watered: 'Water', Fertilized: 'Fertilize', Misted: 'Mist', Repotted: 'Repot', Pruned: 'Prune' };
const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
/** "Due today", "2 days overdue", "In 3 days". */
const dueText = (offset: number): string => (offset === 0 ? 'Due today' : offset < 0 ? `${plural(-offset, 'day')} overdue` : offset === 1 ? 'Tomorrow' : `In ${offset} days`);
const whenText = (day: number): string => (day === 0 ? 'Today' : day === -1 ? 'Yesterday' : shortDay(day));
const sinceText = (day: number): string => (day === 0 ? 'Added today' : `With you since ${monthShort(day)} ${dayOfMonth(day)}, ${dateOf(day).getUTCFullYear()}`);

interface Task {
  p: Plant;
  action: CareAction;
  due: number;
}
function tasks(st: PlantsState): Task[] {
  const out: Task[] = [];
  for (const p of active(st)) {
    out.push({ p, action: 'Watered', due: nextWater(st, p) });
    const f = nextFeed(st, p);
    if (f !== undefined) out.push({ p, action: 'Fertilized', due: f });
  }
  return out.sort((a, b) => a.due - b.due || a.p.id - b.p.id || (a.action < b.action ? -1 : 1));
}

function statusTag(st: PlantsState, p: Plant): string {
  const w = nextWater(st, p);
  return w < 0 ? `<span class="tag late">Water · ${esc(dueText(w))}</span>` : w === 0 ? `<span class="tag due">Water today</span>` : `<span class="tag">Water ${esc(dueText(w).toLowerCase())}</span>`;
}

function todayPage(st: PlantsState, ctx: AppContext, doneId: number): AppResponse {
  const all = tasks(st);
  const due = all.filter((t) => t.due <= 0);
  const soon = all.filter((t) => t.due > 0 && t.due <= 7);
  const done = st.logs.find((l) => l.id === doneId && !l.seeded);
  const dp = done ? plantOf(st, done.plantId) : undefined;
  const taskRow = (t: Task): string =>
    `<div class="task" data-plant="${esc(t.p.name)}" data-act="${t.action}"><a href="${ctx.base}/p/${t.p.id}">${leaf(t.p, 44)}<div class="info"><div class="n">${VERB[t.action]} ${esc(t.p.name)}</div><div class="s${t.due < 0 ? ' late' : ''}">${esc(t.p.room)} · ${esc(dueText(t.due))}</div></div></a><button class="done" aria-label="Mark ${VERB[t.action].toLowerCase()} ${esc(t.p.name)} as done" onclick="done(${t.p.id},'${t.action}',this)">&#10003; Done</button></div>`;
  const body = `${appbar('Fernly')}
<div class="hello">Good morning, ${esc(OWNER.split(' ')[0] ?? '')}<div class="s">${esc(dayLabel(0))}</div></div>
<div class="card hero2"><div class="lbl">Today</div><h2>${due.length ? `${plural(new Set(due.map((t) => t.p.id)).size, 'plant')} need${new Set(due.map((t) => t.p.id)).size === 1 ? 's' : ''} care` : 'All caught up!'}</h2><div class="d">${plural(active(st).length, 'plant')} in your home · ${st.points} leaf points</div></div>
<div class="section">Needs care today</div>${due.length ? due.map(taskRow).join('') : '<div class="empty">Nothing due today. Nice work!</div>'}
<div class="section">Coming up this week</div>${soon.map((t) => `<a class="up" href="${ctx.base}/p/${t.p.id}"><span>${VERB[t.action]} ${esc(t.p.name)}</span><span class="w">${esc(shortDay(t.due))}</span></a>`).join('') || '<div class="empty">Nothing else this week</div>'}
<div class="card note"><div class="lbl">Tip of the day</div><div class="d">Spring is growing season: most plants drink more now. Check the top inch of soil before you water.</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'today')}${menu(ctx)}${done && dp ? toast(`${dp.name}: ${done.action.toLowerCase()} ✓`) : ''}`;
  const script = `let busy=false;function done(id,a,el){if(busy)return;busy=true;el.disabled=true;api('care',{id,actions:[a],day:0}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/?done='+r.ids[0]);return}el.disabled=false})}`;
  return renderPage({ title: 'Fernly', css: CSS, body, ctx, script, root: true });
}

function plantsPage(st: PlantsState, ctx: AppContext, removedId: number, restoredId: number): AppResponse {
  const live = active(st);
  const gone = st.plants.filter((p) => p.removed);
  const justRemoved = plantOf(st, removedId);
  const restored = plantOf(st, restoredId);
  const row = (p: Plant): string =>
    `<a class="pl" href="${ctx.base}/p/${p.id}" data-name="${esc(p.name)}">${leaf(p)}<div class="info"><div class="n">${esc(p.name)}</div><div class="s">${esc(p.species)}</div><div class="s">${statusTag(st, p)}</div></div><span class="go">&rsaquo;</span></a>`;
  const rooms = ROOMS.map((r) => {
    const ps = live.filter((p) => p.room === r);
    return ps.length ? `<div class="room">${esc(r)}<span>${plural(ps.length, 'plant')}</span></div>${ps.map(row).join('')}` : '';
  }).join('');
  const banner =
    justRemoved?.removed
      ? `<div class="card gone"><h2>Plant removed</h2><div class="d">${esc(justRemoved.name)} is no longer in My plants and its reminders are off. You'll find it under Past plants.</div></div>`
      : '';
  const body = `${appbar('My plants')}
<div class="sub">${plural(live.length, 'plant')} · Sorted by room</div>${banner}
${rooms || '<div class="empty">No plants yet. Tap Add plant to start.</div>'}
${
  gone.length
    ? `<div class="room">Past plants<span>${gone.length}</span></div>${gone
        .map(
          (p) =>
            `<a class="pl off" href="${ctx.base}/p/${p.id}" data-name="${esc(p.name)}">${leaf(p, 40)}<div class="info"><div class="n">${esc(p.name)}</div><div class="s">${esc(p.species)} · ${esc(p.removeReason)}</div></div><span class="go">&rsaquo;</span></a>`,
        )
        .join('')}`
    : ''
}
<div class="spacer"></div>
<a class="fab" href="${ctx.base}/add" style="bottom:86px"><span class="plus">+</span>Add plant</a>
${bottomNav(ctx, 'plants')}${menu(ctx)}
${justRemoved?.removed ? `<div id="undo-bar" class="toast" role="status"><span>${esc(justRemoved.name)} removed</span><button id="undo" onclick="undo(${justRemoved.id})">Undo</button></div>` : restored && !restored.removed ? toast(`${restored.name} is back in My plants`) : ''}`;
  // A real snackbar with Undo stays longer than a plain toast.
  const script = `setTimeout(()=>{const u=document.getElementById('undo-bar');if(u)u.hidden=true},10000);
function undo(id){api('restore',{id}).then(r=>{if(r.ok)location.replace(BASE+'/plants?restored='+id)})}`;
  return renderPage({ title: 'My plants', css: CSS, body, ctx, script, root: true });
}

const radioRow = (group: string, v: string, title: string, sub: string, on: boolean, fn: string): string =>
  `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-g="${group}" data-v="${esc(v)}" onclick="${fn}(this)"><span class="rad"></span><div class="info"><div class="t">${esc(title)}</div>${sub ? `<div class="s">${esc(sub)}</div>` : ''}</div></button>`;

function optionDialog(id: string, title: string, opts: readonly { v: string; t: string; s: string }[], current: string, fn: string): string {
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>${opts
    .map((o) => radioRow(id, o.v, o.t, o.s, o.v === current, fn))
    .join('')}
<div class="acts"><button onclick="hide('${id}')">Cancel</button></div></div></div>`;
}

function histRow(l: CareLog, fresh: boolean): string {
  return `<div class="hist${fresh ? ' new' : ''}" data-act="${l.action}" data-day="${l.day}"><div class="dot" style="background:${ACTION_COLORS[l.action]}">${l.action[0]}</div><div class="info"><div class="t">${l.action}</div><div class="s">${esc(whenText(l.day))}${l.day < -1 ? ` · ${esc(relDays(l.day))}` : ''}</div></div></div>`;
}

function plantPage(st: PlantsState, ctx: AppContext, p: Plant, t: string, logIds: readonly number[]): AppResponse {
  const info = speciesInfo(p.species);
  const history = logsOf(st, p.id);
  const fresh = new Set(logIds);
  const shownHistory = history.slice(0, 8);
  const w = nextWater(st, p);
  const f = nextFeed(st, p);
  const newLogs = history.filter((l) => fresh.has(l.id));
  let banner = '';
  if (p.removed) banner = `<div class="card gone"><h2>Removed · ${esc(p.removeReason)}</h2><div class="d">${esc(p.name)} is in Past plants. Its care history is kept here.</div></div>`;
  else if (t === 'added' && p.added) banner = `<div class="card ok"><h2>Plant added</h2><div class="d">Welcome home, ${esc(p.name)}! We'll remind you to water every ${p.waterDays} days.</div></div>`;
  else if (t === 'logged' && newLogs.length)
    banner = `<div class="card ok"><h2>Care logged</h2><div class="d">${esc(newLogs.map((l) => `${l.action} ${whenText(l.day).toLowerCase()}`).join(', '))}. +${newLogs.length * 10} leaf points.</div></div>`;
  else if (t === 'schedule') banner = `<div class="card ok"><h2>Schedule updated</h2><div class="d">Water ${esc(waterLabel(p.waterDays).toLowerCase())} · Fertilize ${esc(feedLabel(p.feedWeeks).toLowerCase())}.</div></div>`;
  const actionsHtml = p.removed
    ? ''
    : `<button class="primary" id="log" onclick="openCare()">Log care</button>`;
  const careSheet = p.removed
    ? ''
    : `<div id="care" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('care')"><div class="sheet care" role="dialog" aria-label="Log care">
<h2>Log care for ${esc(p.name)}</h2>
<div class="q">What did you do?</div><div class="chips" id="g-act">${CARE_ACTIONS.map((a) => `<button class="chip" aria-pressed="false" data-v="${a}" onclick="togAct(this)">${a}</button>`).join('')}</div>
<div class="q">When?</div><div class="seg" id="g-when" role="radiogroup">${WHEN.map(([n, d]) => `<button class="${d === 0 ? 'on' : ''}" role="radio" aria-checked="${d === 0}" data-d="${d}" onclick="pickWhen(this)">${esc(n)}</button>`).join('')}</div>
<div class="err" id="care-err"></div>
<div class="acts"><button class="ghost" onclick="hide('care')">Cancel</button><button class="go" id="care-save" onclick="saveCare()" disabled>Save</button></div></div></div>`;
  const removeDialog = p.removed
    ? ''
    : `<div id="remove" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Remove ${esc(p.name)}?"><h2>Remove ${esc(p.name)}?</h2>
<p>${esc(p.name)} will leave My plants and its reminders will stop. Why are you removing it?</p>
<div id="g-reason" role="radiogroup">${REMOVE_REASONS.map(([n, s]) => radioRow('reason', n, n, s, false, 'pickReason')).join('')}</div>
<div class="err" id="rerr"></div><div class="acts"><button onclick="hide('remove')">Cancel</button><button class="destroy" id="remove-ok" onclick="doRemove()">Remove</button></div></div></div>`;
  const body = `${appbar(p.name, { back: true })}${banner}
<div class="top">${leaf(p, 72)}<div><h2>${esc(p.name)}</h2><div class="s">${esc(p.species)}</div>${info && info[1] !== p.species ? `<div class="s lat">${esc(info[1])}</div>` : ''}<div class="s">${esc(p.room)} · ${esc(p.light)}</div></div></div>
${
  p.removed
    ? ''
    : `<div class="stat"><div><div class="k">Water</div><div class="v${w < 0 ? ' late' : ''}" id="next-water">${esc(dueText(w))}</div></div><div><div class="k">Fertilize</div><div class="v" id="next-feed">${f === undefined ? 'Off' : esc(f <= 0 ? dueText(f) : shortDay(f))}</div></div></div>`
}
${actionsHtml}
<div class="section">Schedule</div>
<div class="kv"><span class="k">Water</span><span class="v" id="v-water">${esc(waterLabel(p.waterDays))}</span></div>
<div class="kv"><span class="k">Fertilize</span><span class="v" id="v-feed">${esc(feedLabel(p.feedWeeks))}</span></div>
<div class="kv"><span class="k">Reminders</span><span class="v">${p.reminders && !p.removed ? `On, ${REMINDER_TIME}` : 'Off'}</span></div>
${p.removed ? '' : `<a class="kv" id="edit-schedule" href="${ctx.base}/p/${p.id}/schedule"><span class="k" style="color:${ACCENT};font-weight:bold">Edit schedule</span><span class="go">&rsaquo;</span></a>`}
<div class="section">Care history</div>${shownHistory.map((l) => histRow(l, fresh.has(l.id))).join('') || '<div class="empty">Nothing logged yet</div>'}
${history.length > shownHistory.length ? `<div class="intro">${plural(history.length - shownHistory.length, 'older entry')} not shown</div>` : ''}
<div class="section">About</div>
<div class="intro">${esc(info?.[5] ?? '')}. ${esc(sinceText(p.since))}.${p.notes ? `<br><b>Notes:</b> ${esc(p.notes)}` : ''}</div>
${p.removed ? '' : `<button class="outline danger" id="remove-btn" onclick="openRemove()">Remove plant</button>`}
<div class="spacer"></div>${bottomNav(ctx, 'plants')}${menu(ctx, p.removed ? [] : [{ label: 'Edit schedule', target: `${ctx.base}/p/${p.id}/schedule` }, { label: 'Remove plant', target: "js:document.getElementById('overflow').hidden=true;openRemove()" }])}
${careSheet}${removeDialog}
${t === 'added' && p.added ? toast(`${p.name} added`) : t === 'logged' && newLogs.length ? toast('Care logged') : t === 'schedule' ? toast('Schedule saved') : ''}`;
  const script = p.removed
    ? ''
    : `const A=new Set();let D=0;
function openCare(){A.clear();D=0;for(const b of document.querySelectorAll('#g-act .chip')){b.classList.remove('on');b.setAttribute('aria-pressed','false')}
 for(const b of document.querySelectorAll('#g-when button')){const on=b.dataset.d==='0';b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}
 document.getElementById('care-save').disabled=true;document.getElementById('care-err').textContent='';show('care')}
function togAct(el){const v=el.dataset.v;if(A.has(v))A.delete(v);else A.add(v);const on=A.has(v);el.classList.toggle('on',on);el.setAttribute('aria-pressed',String(on));document.getElementById('care-save').disabled=A.size===0}
function pickWhen(el){D=Number(el.dataset.d);for(const b of document.querySelectorAll('#g-when button')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
let busy=false;function saveCare(){if(busy||!A.size)return;busy=true;const order=${JSON.stringify(CARE_ACTIONS)};api('care',{id:${p.id},actions:order.filter(a=>A.has(a)),day:D}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/p/${p.id}?t=logged&logs='+r.ids.join(','));return}document.getElementById('care-err').textContent=r.error||'Could not save'})}
let R='';function openRemove(){R='';for(const o of document.querySelectorAll('#g-reason .opt')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('rerr').textContent='';show('remove')}
function pickReason(el){R=el.dataset.v;document.getElementById('rerr').textContent='';for(const o of document.querySelectorAll('#g-reason .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function doRemove(){if(!R){document.getElementById('rerr').textContent='Choose a reason';return}if(busy)return;busy=true;api('remove',{id:${p.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/plants?removed=${p.id}');return}document.getElementById('rerr').textContent=r.error||'Could not remove'})}`;
  return renderPage({ title: p.name, css: CSS, body, ctx, script });
}

function schedulePage(ctx: AppContext, p: Plant): AppResponse {
  const info = speciesInfo(p.species);
  const body = `${appbar('Care schedule', { back: true, menu: false })}
<div class="top">${leaf(p, 52)}<div><h2 style="font-size:21px">${esc(p.name)}</h2><div class="s">${esc(p.species)} · ${esc(p.room)}</div></div></div>
<div class="intro">Fernly reminds you when it's time, based on the last time you logged each kind of care.</div>
${info ? `<div class="card note"><div class="lbl">Suggested for ${esc(p.species)}</div><div class="d">Water ${esc(waterLabel(info[2]).toLowerCase())} · Fertilize ${esc(feedLabel(info[3]).toLowerCase())}</div></div>` : ''}
<div class="section">Watering</div>
<button class="srow" id="r-water" onclick="show('waterdlg')"><div class="info"><div class="t">Water every</div><div class="s" id="s-water">${esc(waterLabel(p.waterDays))}</div></div><span class="go">&rsaquo;</span></button>
<div class="section">Fertilizing</div>
<button class="srow" id="r-feed" onclick="show('feeddlg')"><div class="info"><div class="t">Fertilize</div><div class="s" id="s-feed">${esc(feedLabel(p.feedWeeks))}</div></div><span class="go">&rsaquo;</span></button>
<div class="section">Reminders</div>
<button class="srow" role="switch" id="r-remind" aria-checked="${p.reminders}" onclick="flip(this)"><div class="info"><div class="t">Remind me</div><div class="s">A notification at ${REMINDER_TIME} on the days care is due</div></div><span class="switch${p.reminders ? ' on' : ''}"></span></button>
<div class="error" id="err"></div>
<button class="primary" id="save" onclick="save()">Save schedule</button><div class="spacer"></div>
${optionDialog('waterdlg', 'Water every', WATER_OPTIONS.map((d) => ({ v: String(d), t: waterLabel(d), s: d === info?.[2] ? 'Suggested' : '' })), String(p.waterDays), 'pickWater')}
${optionDialog('feeddlg', 'Fertilize', FEED_OPTIONS.map((wk) => ({ v: String(wk), t: feedLabel(wk), s: wk === info?.[3] ? 'Suggested' : wk === 0 ? 'No fertilizer reminders' : '' })), String(p.feedWeeks), 'pickFeed')}`;
  const script = `const V={water:${p.waterDays},feed:${p.feedWeeks},reminders:${p.reminders}};
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(id)}
function pickWater(el){V.water=Number(el.dataset.v);document.getElementById('s-water').textContent=el.querySelector('.t').textContent;mark('waterdlg',el)}
function pickFeed(el){V.feed=Number(el.dataset.v);document.getElementById('s-feed').textContent=el.querySelector('.t').textContent;mark('feeddlg',el)}
function flip(el){V.reminders=!V.reminders;el.setAttribute('aria-checked',String(V.reminders));el.querySelector('.switch').classList.toggle('on',V.reminders)}
let busy=false;function save(){if(busy)return;busy=true;api('schedule',{id:${p.id},waterDays:V.water,feedWeeks:V.feed,reminders:V.reminders}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/p/${p.id}?t=schedule');return}document.getElementById('err').textContent=r.error||'Could not save'})}`;
  return renderPage({ title: 'Care schedule', css: CSS, body, ctx, script });
}

function addPage(ctx: AppContext): AppResponse {
  const spOpt = ([n, lat, wd, , light]: readonly [string, string, number, number, string, string]): string =>
    `<button class="opt" role="radio" aria-checked="false" data-v="${esc(n)}" data-hint="${esc(`Suggested: water every ${wd} days · ${light}`)}" onclick="pickSpecies(this)"><span class="rad"></span><div class="info"><div class="t">${esc(n)}</div><div class="s">${esc(lat)}</div></div></button>`;
  const body = `${appbar('Add plant', { back: true, menu: false })}
<div class="intro">Tell us about your new plant and we'll build its care schedule.</div>
<div class="field" id="f-name"><label for="name">Nickname</label><input id="name" type="text" autocomplete="off" maxlength="${NAME_MAX + 10}" placeholder="e.g. Fernie"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-species"><label>Species</label><button class="pick unset" id="species-btn" onclick="openSpecies()"><span id="species-v">Choose a species</span><span>&#9662;</span></button><div class="hint" id="species-h"></div><div class="ferr" id="e-species"></div></div>
<div class="field" id="f-room"><label>Room</label><div class="chips" id="g-room">${ROOMS.map((r) => `<button class="chip" role="radio" aria-checked="false" data-v="${esc(r)}" onclick="pickRoom(this)">${esc(r)}</button>`).join('')}</div><div class="ferr" id="e-room"></div></div>
<div class="field" id="f-light"><label>Light</label><div id="g-light" role="radiogroup">${LIGHTS.map(([n, s]) => radioRow('light', n, n, s, false, 'pickLight')).join('')}</div><div class="ferr" id="e-light"></div></div>
<div class="field" id="f-notes"><label for="notes">Notes (optional)</label><input id="notes" type="text" autocomplete="off" maxlength="120" placeholder="e.g. Gift from Mom"></div>
<button class="primary" id="save" onclick="save()">Save plant</button><div class="spacer"></div>
<div id="species" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('species')"><div class="dialog tall" role="dialog" aria-label="Species"><h2>Species</h2>
<input id="sq" class="search" type="text" autocomplete="off" placeholder="Search species" oninput="filterSp(this.value)">
<div class="splist" id="splist">${SPECIES.map(spOpt).join('')}<div class="empty" id="sp-none" hidden>No species match</div></div>
<div class="acts"><button onclick="hide('species')">Cancel</button></div></div></div>`;
  const script = `const V={species:'',room:'',light:''};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function openSpecies(){const q=document.getElementById('sq');q.value='';filterSp('');show('species')}
function filterSp(q){q=q.trim().toLowerCase();let n=0;for(const o of document.querySelectorAll('#splist .opt')){const hit=!q||o.textContent.toLowerCase().includes(q);o.hidden=!hit;if(hit)n++}document.getElementById('sp-none').hidden=n>0}
function pickSpecies(el){V.species=el.dataset.v;const s=document.getElementById('species-v');s.textContent=V.species;s.parentElement.classList.remove('unset');document.getElementById('species-h').textContent=el.dataset.hint;clr('species');
 for(const o of document.querySelectorAll('#splist .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('species')}
function pickRoom(el){V.room=el.dataset.v;clr('room');for(const b of document.querySelectorAll('#g-room .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
function pickLight(el){V.light=el.dataset.v;clr('light');for(const o of document.querySelectorAll('#g-light .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function save(){if(busy)return;for(const k of ['name','species','room','light'])clr(k);
 const v=k=>document.getElementById(k).value;busy=true;api('add',{name:v('name'),species:V.species,room:V.room,light:V.light,notes:v('notes')}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/p/'+r.id+'?t=added');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Add plant', css: CSS, body, ctx, script });
}

function profilePage(st: PlantsState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const live = active(st);
  const body = `${appbar('Profile')}
<div class="srow"><div class="leaf" style="background:${ACCENT};width:48px;height:48px;border-radius:24px;font-size:19px">${esc(OWNER.split(' ').map((w) => w[0] ?? '').join(''))}</div><div class="info"><div class="t">${esc(OWNER)}</div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="card hero2"><div class="lbl">Leaf points</div><h2>${st.points}</h2><div class="d">10 points for every bit of care you log. 500 points unlock a free plant-care guide.</div></div>
<div class="section">Your home</div>
${row('Plants', `${plural(live.length, 'plant')} in ${new Set(live.map((p) => p.room)).size} rooms`)}
${row('Rooms', ROOMS.join(', '))}
<div class="section">Notifications</div>
${row('Care reminders', `Every day at ${REMINDER_TIME}`)}
${row('Location', 'Portland, OR · used for seasonal tips')}
<div class="section">More</div>
${row('Plant doctor', 'Send a photo, get advice within a day')}
${row('Help and feedback', 'FAQ and contact')}
<div class="spacer"></div>${bottomNav(ctx, 'profile')}${menu(ctx)}`;
  return renderPage({ title: 'Profile', css: CSS, body, ctx, root: true });
}

const intIn = (v: unknown, opts: readonly number[]): number | undefined => (typeof v === 'number' && opts.includes(v) ? v : undefined);

function handleApi(st: PlantsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'care': {
      const p = plantOf(st, Number(b.id));
      if (!p || p.removed) return json({ ok: false, error: 'This plant is no longer in your collection' }, 409);
      const acts = Array.isArray(b.actions) ? b.actions.map((x) => str(x)) : [];
      const day = intIn(b.day, WHEN.map(([, d]) => d));
      if (!acts.length || !acts.every((a) => (CARE_ACTIONS as readonly string[]).includes(a)) || new Set(acts).size !== acts.length) return json({ ok: false, error: 'Choose what you did' }, 400);
      if (day === undefined) return json({ ok: false, error: 'Choose when you did it' }, 400);
      const ids: number[] = [];
      for (const a of acts) {
        const id = 2001 + st.logs.filter((l) => !l.seeded).length;
        st.logs.push({ id, plantId: p.id, action: a as CareAction, day, seeded: false, seq: st.seq });
        ids.push(id);
        st.points += 10;
      }
      return json({ ok: true, ids });
    }
    case 'schedule': {
      const p = plantOf(st, Number(b.id));
      const water = intIn(b.waterDays, WATER_OPTIONS);
      const feed = intIn(b.feedWeeks, FEED_OPTIONS);
      if (!p || p.removed) return json({ ok: false, error: 'This plant is no longer in your collection' }, 409);
      if (water === undefined || feed === undefined || typeof b.reminders !== 'boolean') return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      p.waterDays = water;
      p.feedWeeks = feed;
      p.reminders = b.reminders;
      st.scheduleSaves.push({ plantId: p.id, waterDays: water, feedWeeks: feed, reminders: b.reminders, seq: st.seq });
      return json({ ok: true });
    }
    case 'remove': {
      const p = plantOf(st, Number(b.id));
      const reason = str(b.reason);
      if (!p || p.removed) return json({ ok: false, error: 'This plant was already removed' }, 409);
      if (!REMOVE_REASON_NAMES.includes(reason)) return json({ ok: false, error: 'Choose a reason' }, 400);
      p.removed = true;
      p.removeReason = reason;
      p.seq = st.seq;
      return json({ ok: true });
    }
    case 'restore': {
      const p = plantOf(st, Number(b.id));
      if (!p || !p.removed) return json({ ok: false, error: 'Nothing to undo' }, 409);
      if (active(st).some((x) => x.name.toLowerCase() === p.name.toLowerCase())) return json({ ok: false, error: `You already have a plant called ${p.name}` }, 409);
      p.removed = false;
      p.removeReason = '';
      p.seq = st.seq;
      return json({ ok: true });
    }
    case 'add': {
      const d = { name: str(b.name), species: str(b.species), room: str(b.room), light: str(b.light) };
      const errors = plantErrors(st.plants, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const info = speciesInfo(d.species);
      const id = 401 + st.plants.filter((p) => p.added).length;
      st.plants.push({
        id,
        name: cleanText(d.name),
        species: d.species,
        room: d.room,
        light: d.light,
        waterDays: info?.[2] ?? 7,
        feedWeeks: info?.[3] ?? 4,
        reminders: true,
        notes: cleanText(str(b.notes)).slice(0, 120),
        since: 0,
        added: true,
        removed: false,
        removeReason: '',
        seq: st.seq,
      });
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handlePlants(st: PlantsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('t') ?? '';
  if (head === undefined) return todayPage(st, ctx, Number(req.query.get('done') ?? 0));
  if (head === 'plants' && arg === undefined) return plantsPage(st, ctx, Number(req.query.get('removed') ?? 0), Number(req.query.get('restored') ?? 0));
  if (head === 'add' && arg === undefined) return addPage(ctx);
  if (head === 'profile' && arg === undefined) return profilePage(st, ctx);
  if (head === 'p' && arg) {
    const p = plantOf(st, Number(arg));
    if (!p) return notFound(CSS);
    if (sub === 'schedule') return p.removed ? { status: 303, redirect: `${ctx.base}/p/${p.id}` } : schedulePage(ctx, p);
    if (sub === undefined) {
      const logs = (req.query.get('logs') ?? '')
        .split(',')
        .map(Number)
        .filter((n) => n > 0);
      return plantPage(st, ctx, p, t, logs);
    }
  }
  return notFound(CSS);
}
