import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import { AMPM, DAYS, HOURS, MINUTES, SILENCE_AFTER, SNOOZE, WEEK_START, fmtDays, fmtTime } from './catalog.js';
import type { Alarm, ClockState } from './state.js';

const ACCENT = '#3b5bdb';
const CSS =
  kitCss(ACCENT, '#dbe4ff') +
  `
body{background:#f3f5fb}
.alarm{display:flex;align-items:center;gap:12px;margin:10px 12px;padding:16px 18px;background:#fff;border-radius:18px;box-shadow:0 1px 3px rgba(0,0,0,.1)}
.alarm .info{flex:1}
.alarm .time{font-size:34px;font-weight:300;color:#1f2328}
.alarm.off .time{color:#6c737c}
.alarm .lbl{font-size:16px;color:#343a40;margin-top:2px;font-weight:bold}
.alarm .days{font-size:15px;color:#5f6670;margin-top:2px}
.tabs{position:fixed;left:0;right:0;bottom:0;height:66px;z-index:22;display:flex;background:#fff;border-top:1px solid #dde1e6}
.tabs a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:16px;color:#5f6670;gap:2px}
.tabs a.on{color:${ACCENT};font-weight:bold}
.tabs .g{font-size:20px;line-height:20px}
.fab{bottom:86px}
.toast{bottom:160px}
.big{text-align:center;font-size:64px;font-weight:300;padding:60px 0 20px;color:#1f2328;font-family:'Liberation Sans',Arial,sans-serif}
.ctl{display:flex;justify-content:center;gap:16px;padding:10px}
.ctl button{min-width:120px;height:54px;border-radius:27px;font-size:18px;font-weight:bold;border:2px solid ${ACCENT};color:${ACCENT};background:#fff}
.ctl button.fill{background:${ACCENT};color:#fff}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.pickrow{display:flex;gap:10px}
.pickrow button{flex:1;height:60px;border:2px solid #d0d4da;border-radius:12px;background:#fff;font-size:26px;font-weight:bold}
.pickrow .cap{display:block;font-size:14px;font-weight:normal;color:#5f6670}
`;

function tabs(ctx: AppContext, on: 'alarm' | 'timer' | 'stopwatch'): string {
  const t = (id: typeof on, href: string, g: string, label: string): string => `<a href="${href}" class="${on === id ? 'on' : ''}" onclick="event.preventDefault();location.replace(this.href)"><span class="g">${g}</span><span>${label}</span></a>`;
  return `<nav class="tabs">${t('alarm', `${ctx.base}/`, '&#9719;', 'Alarm')}${t('timer', `${ctx.base}/timer`, '&#9684;', 'Timer')}${t('stopwatch', `${ctx.base}/stopwatch`, '&#9673;', 'Stopwatch')}</nav>`;
}
const menu = (ctx: AppContext): string => overflowMenu([['Settings', `${ctx.base}/settings`], ['Send feedback', 'js:__tfMenu()']]);

function alarmRow(a: Alarm): string {
  const name = `${fmtTime(a.hour, a.minute, a.ampm)} ${a.label}`;
  return `<div class="alarm${a.on ? '' : ' off'}" data-long data-id="${a.id}" data-label="${esc(a.label)}"><div class="info"><div class="time">${fmtTime(a.hour, a.minute, a.ampm)}</div>
<div class="lbl">${esc(a.label)}</div><div class="days">${esc(fmtDays(a.days))}</div></div>
<button class="switch${a.on ? ' on' : ''}" data-nolong role="switch" aria-checked="${a.on}" aria-label="${esc(name)}" onclick="toggleAlarm(${a.id},this)"></button></div>`;
}

function alarmsPage(state: ClockState, ctx: AppContext, toastKind: string): AppResponse {
  const alarms = state.alarms.filter((a) => !a.deleted);
  const t = toastKind === 'deleted' ? toast('Alarm deleted', { label: 'Undo', js: "api('undo',{}).then(()=>location.replace(BASE+'/'))" }) : toastKind === 'saved' ? toast('Alarm saved') : '';
  const body = `${appbar('Clock')}<div class="section">Alarms</div>
<div class="muted" style="padding:0 16px 4px">Press and hold an alarm to delete it</div>
${alarms.map(alarmRow).join('') || '<div class="empty">No alarms</div>'}<div style="height:170px"></div>
<a class="fab" href="${ctx.base}/new" aria-label="Add alarm"><span class="plus">+</span><span>Add alarm</span></a>
${actionSheet('sheet', [
  ['Delete alarm', "hide('sheet');show('del')"],
  ['Duplicate', "hide('sheet')"],
])}${confirmDialog('del', 'Delete alarm?', '', 'Delete', 'delTarget()')}${tabs(ctx, 'alarm')}${menu(ctx)}${t}`;
  const script = `let target=null;
window.onLong=function(el){target=el;document.getElementById('sheet-t').textContent=el.querySelector('.time').textContent+' '+el.dataset.label;
 document.getElementById('del-text').textContent='The alarm "'+el.dataset.label+'" will be removed.';show('sheet')};
function delTarget(){api('delete',{id:Number(target.dataset.id)}).then(()=>location.replace(BASE+'/?toast=deleted'))}
function toggleAlarm(id,el){api('toggle',{id}).then(s=>{el.classList.toggle('on',s.on);el.setAttribute('aria-checked',String(s.on));el.closest('.alarm').classList.toggle('off',!s.on)})}`;
  return renderPage({ title: 'Clock', css: CSS, body, ctx, script, root: true });
}

function newAlarmPage(ctx: AppContext): AppResponse {
  const chips = DAYS.map((d) => `<button class="chip" role="checkbox" aria-checked="false" data-day="${d}" onclick="day(this)">${d}</button>`).join('');
  const body = `${appbar('Add alarm', { back: true, menu: false, actions: '<button class="icon txt" onclick="save()">Save</button>' })}
<div class="field"><label>Time</label><div class="pickrow">
<button id="hourbtn" aria-label="Hour" onclick="show('pk-hour')"><span class="cap">Hour</span><span id="hourv">7</span></button>
<button id="minbtn" aria-label="Minute" onclick="show('pk-minute')"><span class="cap">Minute</span><span id="minv">00</span></button></div></div>
<div class="field"><label>AM / PM</label><div class="seg" role="radiogroup">${AMPM.map((p) => `<button role="radio" aria-checked="${p === 'AM'}" class="${p === 'AM' ? 'on' : ''}" data-ampm="${p}" onclick="setAmpm('${p}')">${p}</button>`).join('')}</div></div>
<div class="field"><label for="label">Label</label><input id="label" type="text" placeholder="Alarm name" autocomplete="off"></div>
<div class="field"><label>Repeat</label><div class="chips">${chips}</div></div>
<div class="error" id="err" role="alert"></div>
<button class="primary" onclick="save()">Save alarm</button><div class="spacer"></div>
${pickerDialog('pk-hour', 'Hour', HOURS, '7', 'setHour')}${pickerDialog('pk-minute', 'Minute', MINUTES, '00', 'setMin')}`;
  const script = `let hour=7,minute='00',ampm='AM';
function mark(id,v){for(const b of document.querySelectorAll('#'+id+' .opt')){const on=b.dataset.v===v;b.classList.toggle('sel',on);b.setAttribute('aria-checked',String(on))}hide(id)}
function setHour(v){hour=Number(v);document.getElementById('hourv').textContent=v;mark('pk-hour',v)}
function setMin(v){minute=v;document.getElementById('minv').textContent=v;mark('pk-minute',v)}
function setAmpm(p){ampm=p;for(const b of document.querySelectorAll('[data-ampm]')){const on=b.dataset.ampm===p;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
function day(b){const on=b.getAttribute('aria-checked')!=='true';b.setAttribute('aria-checked',String(on));b.classList.toggle('on',on)}
function save(){const days=[...document.querySelectorAll('[data-day][aria-checked="true"]')].map(b=>b.dataset.day);
 api('add',{hour,minute,ampm,label:document.getElementById('label').value,days}).then(r=>{if(r.ok)location.replace(BASE+'/?toast=saved');else document.getElementById('err').textContent=r.error})}`;
  return renderPage({ title: 'Add alarm', css: CSS, body, ctx, script });
}

function settingsPage(state: ClockState, ctx: AppContext): AppResponse {
  const s = state.settings;
  const sw = (key: string, label: string, on: boolean): string =>
    `<button class="row" role="switch" aria-checked="${on}" aria-label="${esc(label)}" onclick="tog('${key}',this)"><div class="info"><div class="t">${esc(label)}</div></div><span class="switch${on ? ' on' : ''}"></span></button>`;
  const pk = (key: string, label: string, value: string): string =>
    `<button class="row" onclick="show('pk-${key}')"><div class="info"><div class="t">${esc(label)}</div><div class="s">${esc(value)}</div></div></button>`;
  const dead = (label: string, sub: string): string => `<button class="row"><div class="info"><div class="t">${esc(label)}</div><div class="s">${esc(sub)}</div></div></button>`;
  const body = `${appbar('Settings', { back: true, menu: false })}
<div class="section">Clock</div>${dead('Style', 'Digital')}${sw('seconds', 'Display time with seconds', s.seconds)}${sw('autoHome', 'Automatic home clock', s.autoHome)}${dead('Home time zone', 'London')}${dead('Change date & time', 'Set by network')}
<div class="section">Alarms</div>${pk('silenceAfter', 'Silence after', s.silenceAfter)}${dead('Alarm volume', 'Medium')}${sw('gradual', 'Gradually increase volume', s.gradual)}${sw('vibrate', 'Vibrate', s.vibrate)}${dead('Alarm sound', 'Cesium')}${pk('weekStart', 'Start week on', s.weekStart)}
<div class="section">Timers</div>${dead('Timer sound', 'Default (Timer Expired)')}${dead('Gradually increase timer volume', 'Off')}
<div class="section">Screen saver</div>${dead('Screen saver style', 'Analog')}${dead('Night mode', 'Very dim display')}
<div class="section">Snooze</div>${pk('snooze', 'Snooze length', s.snooze)}<div class="spacer"></div>
${pickerDialog('pk-snooze', 'Snooze length', SNOOZE, s.snooze, "pick('snooze')")}${pickerDialog('pk-silenceAfter', 'Silence after', SILENCE_AFTER, s.silenceAfter, "pick('silenceAfter')")}${pickerDialog('pk-weekStart', 'Start week on', WEEK_START, s.weekStart, "pick('weekStart')")}`;
  const script = `function pick(key){return v=>api('setting',{key,value:v}).then(()=>location.reload())}
function tog(key,el){api('setting',{key,toggle:true}).then(r=>{el.setAttribute('aria-checked',String(r.on));el.querySelector('.switch').classList.toggle('on',r.on)})}`;
  return renderPage({ title: 'Clock settings', css: CSS, body, ctx, script });
}

function timerPage(state: ClockState, ctx: AppContext): AppResponse {
  const m = state.timer.minutes;
  const body = `${appbar('Clock')}<div class="section">Timer</div><div class="big" id="tv">${String(m).padStart(2, '0')}:00</div>
<div class="ctl"><button aria-label="Minus one minute" onclick="api('timer',{delta:-1}).then(()=>location.reload())">&minus;1 min</button><button aria-label="Plus one minute" onclick="api('timer',{delta:1}).then(()=>location.reload())">+1 min</button></div>
<div class="ctl"><button class="fill" onclick="api('timer',{start:true}).then(()=>location.reload())">${state.timer.running ? 'Pause' : 'Start'}</button></div>
${state.timer.running ? '<div class="muted" style="text-align:center">Timer running</div>' : ''}${tabs(ctx, 'timer')}${menu(ctx)}`;
  return renderPage({ title: 'Timer', css: CSS, body, ctx, root: true });
}

function stopwatchPage(state: ClockState, ctx: AppContext): AppResponse {
  const laps = Array.from({ length: state.stopwatch.laps }, (_, i) => `<div class="row"><div class="info"><div class="t">Lap ${i + 1}</div></div><span>00:00.00</span></div>`).join('');
  const body = `${appbar('Clock')}<div class="section">Stopwatch</div><div class="big">00:00.00</div>
<div class="ctl"><button onclick="api('stopwatch',{lap:true}).then(()=>location.reload())">Lap</button><button class="fill" onclick="api('stopwatch',{start:true}).then(()=>location.reload())">${state.stopwatch.running ? 'Pause' : 'Start'}</button></div>
${laps}<div class="spacer"></div>${tabs(ctx, 'stopwatch')}${menu(ctx)}`;
  return renderPage({ title: 'Stopwatch', css: CSS, body, ctx, root: true });
}

function handleApi(state: ClockState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  const alarm = state.alarms.find((a) => a.id === Number(b.id) && !a.deleted);
  switch (action) {
    case 'add': {
      const hour = Number(b.hour);
      const minute = str(b.minute);
      const ampm = AMPM.find((x) => x === str(b.ampm));
      if (!Number.isInteger(hour) || hour < 1 || hour > 12 || !(MINUTES as readonly string[]).includes(minute) || !ampm) return json({ ok: false, error: 'Choose a valid time' });
      const days = Array.isArray(b.days) ? DAYS.filter((d) => (b.days as unknown[]).includes(d)) : [];
      const label = str(b.label).trim().slice(0, 60) || 'Alarm';
      const dup = state.alarms.find((a) => !a.deleted && a.hour === hour && a.minute === minute && a.ampm === ampm);
      if (dup) return json({ ok: false, error: `You already have an alarm at ${fmtTime(hour, minute, ampm)} (${dup.label})` });
      state.alarms.push({ id: state.nextId++, label, hour, minute, ampm, days, on: true, seeded: false, deleted: false, seq: state.seq });
      return json({ ok: true });
    }
    case 'toggle':
      if (!alarm) return json({ ok: false }, 404);
      alarm.on = !alarm.on;
      alarm.seq = state.seq;
      return json({ on: alarm.on });
    case 'delete':
      if (!alarm) return json({ ok: false }, 404);
      alarm.deleted = true;
      alarm.seq = state.seq;
      return json({ ok: true });
    case 'undo': {
      const last = state.alarms.filter((a) => a.deleted).sort((x, y) => y.seq - x.seq)[0];
      if (last) last.deleted = false;
      return json({ ok: true });
    }
    case 'setting': {
      const s = state.settings;
      const key = str(b.key);
      const v = str(b.value);
      if (b.toggle === true && (key === 'gradual' || key === 'vibrate' || key === 'seconds' || key === 'autoHome')) {
        s[key] = !s[key];
        return json({ on: s[key] });
      }
      if (key === 'snooze' && (SNOOZE as readonly string[]).includes(v)) s.snooze = v;
      else if (key === 'silenceAfter' && (SILENCE_AFTER as readonly string[]).includes(v)) s.silenceAfter = v;
      else if (key === 'weekStart' && (WEEK_START as readonly string[]).includes(v)) s.weekStart = v;
      else return json({ error: 'bad setting' }, 400);
      return json({ ok: true });
    }
    case 'timer':
      if (b.start === true) state.timer.running = !state.timer.running;
      else state.timer.minutes = Math.max(1, Math.min(99, state.timer.minutes + (typeof b.delta === 'number' ? Math.sign(b.delta) : 0)));
      return json({ ok: true });
    case 'stopwatch':
      if (b.start === true) state.stopwatch.running = !state.stopwatch.running;
      else if (state.stopwatch.running) state.stopwatch.laps += 1;
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleClock(state: ClockState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head] = parts;
  if (head === undefined) return alarmsPage(state, ctx, req.query.get('toast') ?? '');
  if (head === 'new') return newAlarmPage(ctx);
  if (head === 'settings') return settingsPage(state, ctx);
  if (head === 'timer') return timerPage(state, ctx);
  if (head === 'stopwatch') return stopwatchPage(state, ctx);
  return notFound(CSS);
}
