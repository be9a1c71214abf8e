import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  absenceErrors,
  ABSENCE_DAYS,
  bookingOf,
  childOf,
  cleanText,
  clubOf,
  dayLabel,
  dayOfMonth,
  eligible,
  fullName,
  liveBookings,
  lunchOpen,
  lunchPrice,
  MENU,
  menuOf,
  money,
  monthShort,
  newsOf,
  NOTE_MAX,
  notifOf,
  OFFICE_PHONE,
  orderOf,
  PACKED,
  PARENT,
  PARENT_EMAIL,
  placesLeft,
  priceText,
  REASONS,
  SCHOOL,
  SESSIONS,
  shortDay,
  TIMES,
  WEEKDAYS,
  yearsText,
  type Absence,
  type Booking,
  type Child,
  type Club,
  type SchoolState,
} from './state.js';

const ACCENT = '#4338ca';
const SOFT = '#e0e7ff';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f5f6fb}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #dfe2ee}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5b6178}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:120px}
.school{padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2;font-size:15px;color:#5b6178}
.hello{margin:12px;padding:16px 18px;border-radius:14px;background:${ACCENT};color:#fff}
.hello h2{margin:0 0 4px;font-size:22px}
.hello .d{font-size:16px;opacity:.9}
.kid{display:flex;gap:14px;align-items:center;min-height:78px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.kid .info,.lrow .info,.bk .info,.cl .info,.ab .info,.nw .info,.ev .info{flex:1;min-width:0}
.kid .n,.bk .n,.cl .n,.ab .n,.nw .n,.ev .n{font-size:18px;font-weight:bold}
.kid .s,.bk .s,.cl .s,.ab .s,.nw .s,.ev .s{font-size:15px;color:#5b6178;margin-top:3px}
.badge{flex:none;font-size:14px;font-weight:bold;padding:5px 10px;border-radius:14px;background:${SOFT};color:${ACCENT}}
.badge.grey{background:#eef0f4;color:#5b6178}
.badge.ok{background:#d3f9d8;color:#2b8a3e}
.go{font-size:24px;color:#a3a9bd}
.av{color:#fff}
.quick{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:8px 12px}
.quick a{display:flex;flex-direction:column;gap:6px;padding:14px;border-radius:14px;background:#fff;border:1px solid #e0e3ee;font-size:16px;font-weight:bold;min-height:86px}
.quick a .g{font-size:24px;color:${ACCENT}}
.ev{display:flex;gap:14px;align-items:center;min-height:68px;padding:8px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.date{flex:none;width:52px;height:52px;border-radius:10px;background:${SOFT};color:${ACCENT};display:flex;flex-direction:column;align-items:center;justify-content:center;font-weight:bold;font-size:13px;line-height:16px}
.date b{font-size:20px;line-height:22px}
.nw{display:flex;gap:12px;align-items:center;min-height:68px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.dot{flex:none;width:10px;height:10px;border-radius:5px;background:${ACCENT}}
.dot.read{background:transparent}
.card{display:block;margin:12px;padding:16px 18px;background:#fff;border-radius:14px;border:1px solid #e0e3ee}
.card h2{margin:0 0 6px;font-size:20px}
.card .d{font-size:16px;color:#3d4255}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.warn{border-color:#ffd8a8;background:#fff4e6}
.intro{padding:14px 16px 4px;font-size:16px;color:#3d4255}
.para{padding:8px 16px;font-size:17px;line-height:1.45;background:#fff}
.hero{display:flex;gap:16px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e6e8f2}
.hero h2{margin:0 0 4px;font-size:23px}
.hero .s{font-size:16px;color:#5b6178}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e6e8f2;font-size:17px}
.kv .k{color:#5b6178;flex:none}
.kv .v{font-weight:bold;text-align:right}
.btns{display:flex;gap:10px;padding:12px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.pill{flex:1;height:46px;border-radius:23px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;display:flex;align-items:center;justify-content:center;background:#fff;text-align:center}
.pill.solid{background:${ACCENT};color:#fff}
.seg{display:flex;gap:8px;padding:12px 12px 4px}
.seg a{flex:1;height:46px;border-radius:23px;border:2px solid #d0d4e2;display:flex;align-items:center;justify-content:center;font-size:17px;font-weight:bold;background:#fff;color:#3d4255}
.seg a.on{border-color:${ACCENT};background:${SOFT};color:${ACCENT}}
.lrow{display:flex;gap:12px;align-items:center;min-height:74px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.lrow.new{background:#eef2ff}
.lrow .dn{font-size:15px;font-weight:bold;color:${ACCENT}}
.lrow .n{font-size:17px;font-weight:bold;margin-top:2px}
.lrow .s{font-size:14px;color:#5b6178;margin-top:2px}
.lrow.locked .dn,.lrow.locked .n{color:#868e96}
.lrow .pr{flex:none;font-size:16px;font-weight:bold;color:#3d4255}
.lopt{display:flex;gap:14px;align-items:flex-start;width:100%;text-align:left;padding:14px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.lopt .rad{flex:none;margin-top:3px;width:24px;height:24px;border-radius:12px;border:2px solid #868e96}
.lopt[aria-checked="true"]{background:#eef2ff}
.lopt[aria-checked="true"] .rad{border:7px solid ${ACCENT}}
.lopt .info{flex:1}
.lopt .n{font-size:18px;font-weight:bold}
.lopt .s{font-size:15px;color:#5b6178;margin-top:3px}
.lopt .tag{display:inline-block;margin-top:6px;font-size:13px;font-weight:bold;color:#2b8a3e;background:#d3f9d8;border-radius:10px;padding:2px 8px}
.lopt .pr{flex:none;font-size:16px;font-weight:bold}
.bk,.cl,.ab{display:flex;gap:14px;align-items:center;min-height:72px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.ab.new{background:#eef2ff}
.ab .rs{flex:none;font-size:15px;font-weight:bold;color:#3d4255;text-align:right;max-width:40%}
.kidrow{display:flex;gap:14px;align-items:center;min-height:76px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2}
.kidrow .info{flex:1}
.kidrow .n{font-size:17px;font-weight:bold}
.kidrow .s{font-size:15px;color:#5b6178;margin-top:3px}
.small{flex:none;height:42px;padding:0 14px;border-radius:21px;border:2px solid ${ACCENT};color:${ACCENT};font-size:15px;font-weight:bold;background:#fff}
.small.danger{border-color:#c92a2a;color:#c92a2a}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:50px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.pick .ph{color:#868e96}
.who{display:flex;gap:10px}
.who button{flex:1;min-height:64px;border:2px solid #d0d4da;border-radius:12px;padding:8px 12px;text-align:left;background:#fff}
.who button b{display:block;font-size:17px}
.who button span{font-size:14px;color:#5b6178}
.who button[aria-checked="true"]{border-color:${ACCENT};background:${SOFT}}
.field .chips{display:flex;flex-wrap:wrap;gap:8px}
.field .chip{min-height:42px}
.field .hint{font-size:15px;color:#5b6178;margin-top:6px}
.field textarea{height:110px}
.field.bad input,.field.bad textarea,.field.bad .pick,.field.bad .who button{border-color:#c92a2a}
.field.bad .chips{outline:2px solid #c92a2a;outline-offset:4px;border-radius:8px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.ferr:empty{display:none}
.dialog .acts button.destroy{color:#c92a2a}
.dialog.tall .list{max-height:52vh;overflow-y:auto}
.dialog .opt{border-bottom:1px solid #f1f3f5}
.dialog .opt .sub{font-size:14px;color:#5b6178;margin-left:auto}
.srow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e8f2;width:100%;text-align:left}
.srow .info{flex:1;min-width:0}
.srow .t{font-size:17px}
.srow .s{font-size:15px;color:#5b6178;margin-top:3px}
.srow .val{flex:none;font-size:17px;font-weight:bold;color:${ACCENT}}
.srow[aria-disabled="true"] .t,.srow[aria-disabled="true"] .val{color:#adb5bd}
.srow[aria-disabled="true"] .switch.on{opacity:.55}
.me{flex:none;width:56px;height:56px;border-radius:28px;background:${ACCENT};color:#fff;font-size:21px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.snack{position:fixed;left:16px;right:16px;bottom:96px;z-index:80;background:#25282c;color:#fff;border-radius:10px;padding:15px 18px;font-size:17px;box-shadow:0 4px 14px rgba(0,0,0,.35)}
.ver{padding:16px;text-align:center;font-size:14px;color:#868e96}
`;

type Tab = 'home' | 'lunches' | 'clubs' | 'more';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar<Tab>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'lunches', label: 'Lunches', glyph: '&#9749;', href: `${ctx.base}/lunches` },
      { id: 'clubs', label: 'Clubs', glyph: '&#9733;', href: `${ctx.base}/clubs` },
      { id: 'more', label: 'More', glyph: '&#9776;', href: `${ctx.base}/more` },
    ],
    on,
  );
const menu = (ctx: AppContext, extra: readonly (readonly [string, string])[] = []): string =>
  overflowMenu([
    ...extra,
    ['Report an absence', `${ctx.base}/absence/new`],
    ['Reported absences', `${ctx.base}/absences`],
    ['Notifications', `${ctx.base}/notifications`],
    ['Home', `${ctx.base}/`],
  ]);

const KID_COLORS: Readonly<Record<string, string>> = { maya: '#c2255c', leo: '#1c7ed6' };
const kidAvatar = (c: Child, size = 48): string =>
  `<div class="av" aria-hidden="true" style="background:${KID_COLORS[c.id] ?? '#868e96'};width:${size}px;height:${size}px;border-radius:${size / 2}px;font-size:${Math.round(size * 0.4)}px">${esc(c.first[0] ?? '')}</div>`;
const classLine = (c: Child): string => `Year ${c.year} · Class ${c.className} · ${c.teacher}`;
const dateBadge = (day: number): string => `<div class="date" aria-hidden="true">${esc(shortDay(day).slice(0, 3))}<b>${shortDay(day).split(' ').pop()}</b></div>`;
const sessionText = (s: string): string => (s === 'All day' ? 'all day' : s === 'Morning only' ? 'morning only' : 'afternoon only');
const snackJs = `function snack(t){let el=document.getElementById('snack');if(!el){el=document.createElement('div');el.id='snack';el.className='snack';el.setAttribute('role','status');document.body.appendChild(el)}el.textContent=t;el.hidden=false;clearTimeout(window.__sn);window.__sn=setTimeout(()=>{el.hidden=true},2500)}`;

const EVENTS: readonly (readonly [number, string, string])[] = [
  [3, "Parents' evening", '3:30–7:00 PM · Book a slot with the office'],
  [9, 'Year 5 trip: Science Museum', 'Maya · Packed lunch and a coat'],
  [11, 'Red Nose Day', 'Non-uniform, £1 donation'],
  [17, 'Spring concert', '2:00 PM · School hall'],
  [18, 'Last day of term', 'School closes at 1:30 PM'],
];

function homePage(st: SchoolState, ctx: AppContext): AppResponse {
  const unread = st.news.filter((n) => !n.read).length;
  const body = `${appbar('Bellwise')}
<div class="school">${esc(SCHOOL)} · Spring term</div>
<div class="hello"><h2>Good morning, ${esc(PARENT.split(' ')[0] ?? '')}</h2><div class="d">${esc(dayLabel(0))}</div></div>
<div class="section">Your children</div>
${st.children
  .map(
    (c) =>
      `<a class="kid" href="${ctx.base}/child/${c.id}" data-child="${esc(c.first)}">${kidAvatar(c)}<div class="info"><div class="n">${esc(fullName(c))}</div><div class="s">${esc(classLine(c))}</div></div><span class="badge">${c.attendance.toFixed(1)}%</span><span class="go">&rsaquo;</span></a>`,
  )
  .join('')}
<div class="section">Quick actions</div>
<div class="quick">
<a id="qa-absence" href="${ctx.base}/absence/new"><span class="g">&#9993;</span>Report absence</a>
<a id="qa-lunch" href="${ctx.base}/lunches"><span class="g">&#9749;</span>Order lunches</a>
<a id="qa-clubs" href="${ctx.base}/clubs"><span class="g">&#9733;</span>Clubs</a>
<a id="qa-notif" href="${ctx.base}/notifications"><span class="g">&#9881;</span>Notifications</a>
</div>
<div class="section">Coming up</div>
${EVENTS.map(([d, t, s]) => `<div class="ev">${dateBadge(d)}<div class="info"><div class="n">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`).join('')}
<div class="section">Latest news${unread ? ` · ${unread} new` : ''}</div>
${st.news
  .map(
    (n) =>
      `<a class="nw" href="${ctx.base}/news/${n.id}"><span class="dot${n.read ? ' read' : ''}" aria-label="${n.read ? 'Read' : 'Unread'}"></span><div class="info"><div class="n">${esc(n.title)}</div><div class="s">${esc(shortDay(n.day))}</div></div><span class="go">&rsaquo;</span></a>`,
  )
  .join('')}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Bellwise', css: CSS, body, ctx, root: true });
}

function newsPage(ctx: AppContext, n: SchoolState['news'][number]): AppResponse {
  const body = `${appbar('News', { back: true })}
<div class="hero"><div><h2>${esc(n.title)}</h2><div class="s">${esc(dayLabel(n.day))} · ${esc(SCHOOL)}</div></div></div>
${n.body.map((p) => `<div class="para">${esc(p)}</div>`).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: n.title, css: CSS, body, ctx });
}

const absenceLine = (a: Absence): string => `${dayLabel(a.day)} · ${a.session}`;

function childPage(st: SchoolState, ctx: AppContext, c: Child): AppResponse {
  const clubs = liveBookings(st)
    .filter((b) => b.childId === c.id)
    .map((b) => clubOf(st, b.clubId))
    .filter((x): x is Club => x !== undefined);
  const absences = st.absences.filter((a) => a.childId === c.id).sort((a, b) => b.day - a.day);
  const body = `${appbar(c.first, { back: true })}
<div class="hero">${kidAvatar(c, 64)}<div><h2>${esc(fullName(c))}</h2><div class="s">Year ${c.year} · Class ${esc(c.className)}</div></div></div>
<div class="kv"><span class="k">Class teacher</span><span class="v">${esc(c.teacher)}</span></div>
<div class="kv"><span class="k">Attendance this term</span><span class="v">${c.attendance.toFixed(1)}%</span></div>
<div class="kv"><span class="k">School lunches</span><span class="v">${c.freeMeals ? 'Free (infant meals)' : `${money(260)} a day`}</span></div>
<div class="btns"><a class="pill solid" id="report-btn" href="${ctx.base}/absence/new?child=${c.id}">Report an absence</a><a class="pill" href="${ctx.base}/lunches?child=${c.id}">Lunch orders</a></div>
<div class="section">Clubs this term</div>
${clubs.length ? clubs.map((cl) => `<a class="cl" href="${ctx.base}/clubs/${cl.id}"><div class="info"><div class="n">${esc(cl.name)}</div><div class="s">${esc(cl.weekday)}s, ${esc(cl.time)}</div></div><span class="go">&rsaquo;</span></a>`).join('') : '<div class="intro">No clubs booked</div>'}
<div class="section">Absences</div>
${absences.map((a) => `<div class="ab"><div class="info"><div class="n">${esc(dayLabel(a.day))}</div><div class="s">${esc(a.session)}</div></div><span class="rs">${esc(a.reason)}</span></div>`).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: c.first, css: CSS, body, ctx });
}

function absenceForm(st: SchoolState, ctx: AppContext, preset: Child | undefined): AppResponse {
  const radio = (v: string, label: string, on: boolean, fn: string, sub = ''): string =>
    `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-v="${esc(v)}" onclick="${fn}(this)"><span class="rad"></span>${esc(label)}${sub ? `<span class="sub">${esc(sub)}</span>` : ''}</button>`;
  const when = (d: number): string => (d === 0 ? 'Today' : d === 1 ? 'Tomorrow' : d >= 7 ? 'Next week' : '');
  const body = `${appbar('Report an absence', { back: true, menu: false })}
<div class="intro">Let the school office know by 9:00 AM if your child won't be in. For anything urgent, call ${esc(OFFICE_PHONE)}.</div>
<div class="field" id="f-child"><label>Who is absent?</label><div class="who" id="g-child" role="radiogroup">${st.children
    .map((c) => `<button role="radio" aria-checked="${c.id === preset?.id}" data-v="${c.id}" onclick="pickChild(this)"><b>${esc(fullName(c))}</b><span>Class ${esc(c.className)}</span></button>`)
    .join('')}</div><div class="ferr" id="e-child"></div></div>
<div class="field" id="f-day"><label>Date</label><button class="pick" id="day-btn" onclick="show('daydlg')"><span id="day-v">${esc(dayLabel(0))}</span><span>&#9662;</span></button><div class="hint">You can report up to the end of next week.</div><div class="ferr" id="e-day"></div></div>
<div class="field" id="f-session"><label>How long?</label><div class="chips" id="g-session" role="radiogroup">${SESSIONS.map(
    (x) => `<button class="chip${x === 'All day' ? ' on' : ''}" role="radio" aria-checked="${x === 'All day'}" data-v="${esc(x)}" onclick="pickSession(this)">${esc(x)}</button>`,
  ).join('')}</div><div class="ferr" id="e-session"></div></div>
<div class="field" id="f-reason"><label>Reason</label><button class="pick" id="reason-btn" onclick="show('reasondlg')"><span id="reason-v" class="ph">Choose a reason</span><span>&#9662;</span></button><div class="ferr" id="e-reason"></div></div>
<div class="field" id="f-note"><label for="note">Details for the office (optional)</label><textarea id="note" maxlength="${NOTE_MAX + 20}" placeholder="e.g. Back after lunch"></textarea><div class="hint">Needed if the reason is Other.</div><div class="ferr" id="e-note"></div></div>
<div class="error" id="err"></div>
<button class="primary" id="submit" onclick="submit()">Submit</button>
<div class="spacer"></div>
<div id="daydlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('daydlg')"><div class="dialog tall" role="dialog" aria-label="Date"><h2>Date</h2><div class="list">${ABSENCE_DAYS.map((d) =>
    radio(String(d), dayLabel(d), d === 0, 'pickDay', when(d)),
  ).join('')}</div>
<div class="acts"><button onclick="hide('daydlg')">Cancel</button></div></div></div>
<div id="reasondlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('reasondlg')"><div class="dialog tall" role="dialog" aria-label="Reason"><h2>Reason</h2><div class="list">${REASONS.map((r) =>
    radio(r, r, false, 'pickReason'),
  ).join('')}</div>
<div class="acts"><button onclick="hide('reasondlg')">Cancel</button></div></div></div>`;
  const script = `const V={child:${JSON.stringify(preset?.id ?? '')},day:0,session:'All day',reason:''};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(id)}
function pickChild(el){V.child=el.dataset.v;clr('child');clr('day');for(const b of document.querySelectorAll('#g-child button'))b.setAttribute('aria-checked',String(b===el))}
function pickDay(el){V.day=Number(el.dataset.v);document.getElementById('day-v').textContent=el.childNodes[1].textContent;clr('day');mark('daydlg',el)}
function pickSession(el){V.session=el.dataset.v;clr('session');for(const b of document.querySelectorAll('#g-session .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
function pickReason(el){V.reason=el.dataset.v;const s=document.getElementById('reason-v');s.textContent=V.reason;s.classList.remove('ph');clr('reason');clr('note');mark('reasondlg',el)}
let busy=false;function submit(){if(busy)return;for(const k of ['child','day','session','reason','note'])clr(k);document.getElementById('err').textContent='';busy=true;
 api('absence',{...V,note:document.getElementById('note').value}).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/absences?t=reported&id='+x.id);return}
 if(x.error)document.getElementById('err').textContent=x.error;
 let first=null;for(const [k,m] of Object.entries(x.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);f.classList.add('bad');first=first||f}if(first)first.scrollIntoView({block:'center'})})}`;
  return renderPage({ title: 'Report an absence', css: CSS, body, ctx, script });
}

function absencesPage(st: SchoolState, ctx: AppContext, t: string, id: number): AppResponse {
  const added = t === 'reported' ? st.absences.find((a) => a.id === id) : undefined;
  const nameOf = (a: Absence): string => {
    const c = childOf(st, a.childId);
    return c ? fullName(c) : '';
  };
  const row = (a: Absence): string =>
    `<div class="ab${a.id === added?.id ? ' new' : ''}" data-child="${esc(childOf(st, a.childId)?.first ?? '')}" data-day="${esc(dayLabel(a.day))}">${(() => {
      const c = childOf(st, a.childId);
      return c ? kidAvatar(c, 44) : '';
    })()}<div class="info"><div class="n">${esc(nameOf(a))}</div><div class="s">${esc(absenceLine(a))}</div></div><span class="rs">${esc(a.reason)}</span></div>`;
  const upcoming = st.absences.filter((a) => a.day >= 0).sort((a, b) => a.day - b.day || a.id - b.id);
  const earlier = st.absences.filter((a) => a.day < 0).sort((a, b) => b.day - a.day);
  const c = added ? childOf(st, added.childId) : undefined;
  const banner =
    added && c
      ? `<div class="card ok"><h2>Absence reported</h2><div class="d">${esc(fullName(c))}, ${esc(dayLabel(added.day))}, ${sessionText(added.session)}: ${esc(added.reason)}. The school office has been told.</div></div>`
      : '';
  const body = `${appbar('Absences', { back: true })}${banner}
<div class="section">Upcoming</div>
${upcoming.length ? upcoming.map(row).join('') : '<div class="intro">No upcoming absences</div>'}
<div class="section">Earlier this term</div>
${earlier.map(row).join('')}
<div class="intro">Absences the school recorded without a reason show on each child's page.</div>
<div class="spacer"></div>
<a class="fab" id="add" href="${ctx.base}/absence/new" style="bottom:86px"><span class="plus">+</span>Report</a>
${bottomNav(ctx, 'more')}${menu(ctx)}
${added ? `<style>#toast{bottom:156px}</style>${toast('Absence reported')}` : ''}`;
  return renderPage({ title: 'Absences', css: CSS, body, ctx });
}

function lunchesPage(st: SchoolState, ctx: AppContext, childId: string, t: string, day: number): AppResponse {
  const c = childOf(st, childId) ?? st.children[0]!;
  const orders = WEEKDAYS.map((_, d) => orderOf(st, c.id, d));
  const updated = t === 'updated' ? orderOf(st, c.id, day) : undefined;
  const weekCost = orders.reduce((sum, o) => sum + (o ? lunchPrice(c, o.choice) : 0), 0);
  const banner = updated ? `<div class="card ok"><h2>Lunch order updated</h2><div class="d">${esc(c.first)}'s ${esc(WEEKDAYS[updated.day] ?? '')} lunch: ${esc(updated.choice)}.</div></div>` : '';
  const rows = orders
    .map((o, d) => {
      const choice = o?.choice ?? 'Not ordered';
      const price = c.freeMeals ? 'Free' : choice === PACKED ? '—' : money(lunchPrice(c, choice));
      const inner = `<div class="info"><div class="dn">${esc(WEEKDAYS[d] ?? '')} · ${esc(monthShort(d))} ${dayOfMonth(d)}${d === 0 ? ' · Today' : ''}</div><div class="n">${esc(choice)}</div><div class="s">${lunchOpen(d) ? 'Tap to change' : 'Orders closed at 9:00 AM'}</div></div><span class="pr">${price}</span>`;
      return lunchOpen(d)
        ? `<a class="lrow${updated?.day === d ? ' new' : ''}" href="${ctx.base}/lunches/${c.id}/${d}" data-day="${esc(WEEKDAYS[d] ?? '')}">${inner}<span class="go">&rsaquo;</span></a>`
        : `<div class="lrow locked" data-day="${esc(WEEKDAYS[d] ?? '')}">${inner}<span class="badge grey">Closed</span></div>`;
    })
    .join('');
  const body = `${appbar('Lunches')}${banner}
<nav class="seg" id="kids" role="tablist">${st.children.map((k) => `<a class="${k.id === c.id ? 'on' : ''}" role="tab" aria-selected="${k.id === c.id}" href="${ctx.base}/lunches?child=${k.id}">${esc(k.first)}</a>`).join('')}</nav>
${
  c.freeMeals
    ? `<div class="card"><h2>Free school meals</h2><div class="d">${esc(c.first)} is in Year ${c.year}, so lunches are free (Universal Infant Free School Meals).</div></div>`
    : `<div class="card"><h2>Lunch balance ${money(st.balance)}</h2><div class="d">This week: ${money(weekCost)} for ${esc(c.first)}. Lunches are ${money(260)} a day.</div></div>`
}
<div class="section">Week of ${esc(dayLabel(0).split(', ')[1] ?? '')}</div>
<div id="week">${rows}</div>
<div class="intro">Orders for each day close at 9:00 AM that morning. Next week's menu opens on Thursday.</div>
<div class="section">Allergies and diets</div>
<div class="srow"><div class="info"><div class="t">No allergies recorded for ${esc(c.first)}</div><div class="s">To add one, contact the school office</div></div></div>
<div class="spacer"></div>${bottomNav(ctx, 'lunches')}${menu(ctx)}
${updated ? toast('Order saved') : ''}`;
  return renderPage({ title: 'Lunches', css: CSS, body, ctx, root: true });
}

function lunchDayPage(st: SchoolState, ctx: AppContext, c: Child, day: number): AppResponse {
  const o = orderOf(st, c.id, day);
  const current = o?.choice ?? '';
  const opts = (MENU[day] ?? [])
    .map(([name, desc, tag]) => {
      const on = name === current;
      const price = c.freeMeals ? 'Free' : name === PACKED ? '' : money(lunchPrice(c, name));
      return `<button class="lopt" role="radio" aria-checked="${on}" data-v="${esc(name)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="n">${esc(name)}</div><div class="s">${esc(desc)}</div>${tag ? `<span class="tag">${esc(tag)}</span>` : ''}</div><span class="pr">${price}</span></button>`;
    })
    .join('');
  const body = `${appbar(`${WEEKDAYS[day] ?? ''} lunch`, { back: true, menu: false })}
<div class="hero">${kidAvatar(c)}<div><h2>${esc(fullName(c))}</h2><div class="s">${esc(dayLabel(day))}</div></div></div>
<div class="section">Choose a lunch</div>
<div id="g-lunch" role="radiogroup">${opts}</div>
<div class="intro">All meals come with fruit or yoghurt and water. Allergen information is on the menu at the school office and on the school website.</div>
<div class="error" id="err"></div>
<button class="primary" id="save" onclick="save()">Save</button>
<div class="spacer"></div>`;
  const script = `let V=${JSON.stringify(current)};
function pick(el){V=el.dataset.v;for(const b of document.querySelectorAll('#g-lunch .lopt'))b.setAttribute('aria-checked',String(b===el));document.getElementById('err').textContent=''}
let busy=false;function save(){if(busy)return;busy=true;api('lunch',{child:'${c.id}',day:${day},choice:V}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/lunches?child=${c.id}&t=updated&day=${day}');return}document.getElementById('err').textContent=x.error||'Could not save'})}`;
  return renderPage({ title: `${WEEKDAYS[day] ?? ''} lunch`, css: CSS, body, ctx, script });
}

function clubsPage(st: SchoolState, ctx: AppContext): AppResponse {
  const booked = liveBookings(st)
    .map((b) => ({ b, club: clubOf(st, b.clubId), child: childOf(st, b.childId) }))
    .filter((x): x is { b: Booking; club: Club; child: Child } => x.club !== undefined && x.child !== undefined)
    .sort((x, y) => st.children.indexOf(x.child) - st.children.indexOf(y.child) || WEEKDAYS.indexOf(x.club.weekday) - WEEKDAYS.indexOf(y.club.weekday) || x.b.id - y.b.id);
  const body = `${appbar('Clubs')}
<div class="intro">Spring term clubs run until Friday, March 27. Places are refunded to your Bellwise balance if you cancel.</div>
<div class="section">Your bookings</div>
${
  booked.length
    ? booked
        .map(
          ({ club, child }) =>
            `<a class="bk" href="${ctx.base}/clubs/${club.id}" data-club="${esc(club.name)}" data-child="${esc(child.first)}">${kidAvatar(child, 44)}<div class="info"><div class="n">${esc(club.name)}</div><div class="s">${esc(child.first)} · ${esc(club.weekday)}s, ${esc(club.time)}</div></div><span class="go">&rsaquo;</span></a>`,
        )
        .join('')
    : '<div class="intro">No clubs booked</div>'
}
<div class="section">All clubs</div>
${[...st.clubs]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((club) => {
    const left = placesLeft(st, club);
    return `<a class="cl" href="${ctx.base}/clubs/${club.id}" data-club="${esc(club.name)}"><div class="info"><div class="n">${esc(club.name)}</div><div class="s">${esc(club.weekday)} · ${esc(yearsText(club))} · ${esc(priceText(club))}</div></div><span class="badge${left ? '' : ' grey'}">${left ? `${left} left` : 'Full'}</span><span class="go">&rsaquo;</span></a>`;
  })
  .join('')}
<div class="spacer"></div>${bottomNav(ctx, 'clubs')}${menu(ctx)}`;
  return renderPage({ title: 'Clubs', css: CSS, body, ctx, root: true });
}

function clubPage(st: SchoolState, ctx: AppContext, club: Club, t: string, childId: string): AppResponse {
  const tc = childOf(st, childId);
  let banner = '';
  if (t === 'cancelled' && tc && !bookingOf(st, club.id, tc.id))
    banner = `<div class="card ok"><h2>Booking cancelled</h2><div class="d">${esc(tc.first)}'s place at ${esc(club.name)} was cancelled.${club.price ? ` ${money(club.price)} will go back to your Bellwise balance.` : ''}</div></div>`;
  else if (t === 'booked' && tc && bookingOf(st, club.id, tc.id)) banner = `<div class="card ok"><h2>Place booked</h2><div class="d">${esc(tc.first)} is booked into ${esc(club.name)} on ${esc(club.weekday)}s.</div></div>`;
  const left = placesLeft(st, club);
  const kidRow = (c: Child): string => {
    const b = bookingOf(st, club.id, c.id);
    const status = b ? 'Booked' : eligible(c, club) ? (left > 0 ? 'Not booked' : 'Club full') : `Not in ${yearsText(club)}`;
    const btn = b
      ? `<button class="small danger" id="cancel-${c.id}" aria-label="Cancel booking for ${esc(c.first)}" onclick="show('cdlg-${c.id}')">Cancel booking</button>`
      : eligible(c, club) && left > 0
        ? `<button class="small" id="book-${c.id}" aria-label="Book a place for ${esc(c.first)}" onclick="show('bdlg-${c.id}')">Book a place</button>`
        : '';
    return `<div class="kidrow" data-child="${esc(c.first)}">${kidAvatar(c, 44)}<div class="info"><div class="n">${esc(fullName(c))}</div><div class="s">${esc(status)}</div></div>${btn}</div>`;
  };
  const dialogs = st.children
    .map((c) => {
      if (bookingOf(st, club.id, c.id))
        return `<div id="cdlg-${c.id}" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel booking?"><h2>Cancel booking?</h2>
<p>${esc(c.first)}'s place at ${esc(club.name)} (${esc(club.weekday)}s, ${esc(club.time)}) will be given up for the rest of the term.${club.price ? ` ${money(club.price)} will be refunded to your Bellwise balance.` : ''}</p>
<div class="error" id="cerr-${c.id}"></div><div class="acts"><button onclick="hide('cdlg-${c.id}')">Keep booking</button><button class="destroy" id="cancel-ok-${c.id}" onclick="doCancel('${c.id}')">Cancel booking</button></div></div></div>`;
      if (eligible(c, club) && left > 0)
        return `<div id="bdlg-${c.id}" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Book a place?"><h2>Book a place?</h2>
<p>${esc(c.first)} will be booked into ${esc(club.name)} on ${esc(club.weekday)}s, ${esc(club.time)}.${club.price ? ` ${money(club.price)} will be taken from your Bellwise balance.` : ''}</p>
<div class="error" id="berr-${c.id}"></div><div class="acts"><button onclick="hide('bdlg-${c.id}')">Not now</button><button id="book-ok-${c.id}" onclick="doBook('${c.id}')">Book</button></div></div></div>`;
      return '';
    })
    .join('');
  const body = `${appbar('Club', { back: true })}${banner}
<div class="hero"><div><h2>${esc(club.name)}</h2><div class="s">${esc(yearsText(club))} · ${esc(priceText(club))}</div></div></div>
<div class="kv"><span class="k">When</span><span class="v">${esc(club.weekday)}s, ${esc(club.time)}</span></div>
<div class="kv"><span class="k">Where</span><span class="v">${esc(club.room)}</span></div>
<div class="kv"><span class="k">Run by</span><span class="v">${esc(club.leader)}</span></div>
<div class="kv"><span class="k">Places</span><span class="v">${left > 0 ? `${left} of ${club.capacity} left` : 'Full'}</span></div>
<div class="section">About this club</div>
<div class="para">${esc(club.about)}</div>
<div class="section">What to bring</div>
<div class="para">${esc(club.bring)}</div>
<div class="section">Your children</div>
${st.children.map(kidRow).join('')}
<div class="intro">Cancelling gives your child's place to the next family on the waiting list.</div>
<div class="spacer"></div>${bottomNav(ctx, 'clubs')}${menu(ctx, [['All clubs', `${ctx.base}/clubs`]])}
${dialogs}
${banner ? toast(t === 'cancelled' ? 'Booking cancelled' : 'Place booked') : ''}`;
  const script = `let busy=false;
function doCancel(c){if(busy)return;busy=true;api('cancel',{club:'${club.id}',child:c}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/clubs/${club.id}?t=cancelled&child='+c);return}document.getElementById('cerr-'+c).textContent=x.error||'Could not cancel'})}
function doBook(c){if(busy)return;busy=true;api('book',{club:'${club.id}',child:c}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/clubs/${club.id}?t=booked&child='+c);return}document.getElementById('berr-'+c).textContent=x.error||'Could not book'})}`;
  return renderPage({ title: club.name, css: CSS, body, ctx, script });
}

const quietLine = (st: SchoolState): string => (st.quiet.on ? `On · ${st.quiet.from} – ${st.quiet.until}` : 'Off');

function morePage(st: SchoolState, ctx: AppContext): AppResponse {
  const upcoming = st.absences.filter((a) => a.day >= 0).length;
  const link = (id: string, href: string, tt: string, s: string): string =>
    `<a class="srow" id="${id}" href="${href}"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div><span class="go">&rsaquo;</span></a>`;
  const row = (tt: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('More')}
<div class="srow"><div class="me" aria-hidden="true">CO</div><div class="info"><div class="t"><b>${esc(PARENT)}</b></div><div class="s">${esc(PARENT_EMAIL)}</div></div></div>
<div class="section">Family</div>
${st.children.map((c) => link(`kid-${c.id}`, `${ctx.base}/child/${c.id}`, fullName(c), classLine(c))).join('')}
<div class="section">School</div>
${link('absences-row', `${ctx.base}/absences`, 'Reported absences', upcoming ? `${upcoming} upcoming` : 'None upcoming')}
${row('Balance', `${money(st.balance)} for lunches and clubs`)}
${row('Contact the school office', `${OFFICE_PHONE} · office@hollinspark.example`)}
<div class="section">Settings</div>
${link('notif-row', `${ctx.base}/notifications`, 'Notifications', `Quiet hours: ${quietLine(st)}`)}
${row('Language', 'English (UK)')}
${row('Help and feedback', 'FAQ and contact')}
<div class="ver">Bellwise 4.12.0 · ${esc(SCHOOL)}</div>
<div class="spacer"></div>${bottomNav(ctx, 'more')}${menu(ctx)}`;
  return renderPage({ title: 'More', css: CSS, body, ctx, root: true });
}

function notificationsPage(st: SchoolState, ctx: AppContext): AppResponse {
  const q = st.quiet;
  const sections = [...new Set(st.notifications.map((n) => n.section))];
  const sw = (id: string, on: boolean, t: string, s: string, disabled: boolean, fn: string, attrs = ''): string =>
    `<button class="srow" id="${id}"${attrs} role="switch" aria-checked="${on}"${disabled ? ' aria-disabled="true"' : ''} onclick="${fn}"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div><span class="switch${on ? ' on' : ''}"></span></button>`;
  const timeDlg = (id: string, title: string, cur: string): string =>
    `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog tall" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2><div class="list">${TIMES.map(
      (x) => `<button class="opt${x === cur ? ' sel' : ''}" role="radio" aria-checked="${x === cur}" data-v="${esc(x)}" onclick="mark('${id}',this)"><span class="rad"></span>${esc(x)}</button>`,
    ).join('')}</div>
<div class="acts"><button onclick="hide('${id}')">Cancel</button><button id="${id}-ok" onclick="okTime('${id}')">OK</button></div></div></div>`;
  const body = `${appbar('Notifications', { back: true })}
<div class="section">Quiet hours</div>
${sw('quiet-row', q.on, 'Quiet hours', 'Silence Bellwise overnight. Urgent messages from the school still come through.', false, 'togQuiet()')}
<button class="srow" id="from-row"${q.on ? '' : ' aria-disabled="true"'} onclick="openTime('fromdlg')"><div class="info"><div class="t">Starts</div></div><span class="val" id="from-v">${esc(q.from)}</span></button>
<button class="srow" id="until-row"${q.on ? '' : ' aria-disabled="true"'} onclick="openTime('untildlg')"><div class="info"><div class="t">Ends</div></div><span class="val" id="until-v">${esc(q.until)}</span></button>
${sections
  .map(
    (sec) =>
      `<div class="section">${esc(sec)}</div>${st.notifications
        .filter((n) => n.section === sec)
        .map((n) => sw(`n-${n.id}`, n.on, n.name, n.locked ? `${n.sub}. Always on.` : n.sub, n.locked, `togN('${n.id}',this)`, ` data-n="${esc(n.name)}"`))
        .join('')}`,
  )
  .join('')}
<div class="intro">Changes are saved straight away.</div>
<div class="spacer"></div>${bottomNav(ctx, 'more')}${menu(ctx)}
${timeDlg('fromdlg', 'Quiet hours start', q.from)}
${timeDlg('untildlg', 'Quiet hours end', q.until)}`;
  const script = `${snackJs}
let Q=${JSON.stringify({ on: q.on, from: q.from, until: q.until })};
function paint(){const r=document.getElementById('quiet-row');r.setAttribute('aria-checked',String(Q.on));r.querySelector('.switch').classList.toggle('on',Q.on);
 for(const id of ['from-row','until-row']){const e=document.getElementById(id);if(Q.on)e.removeAttribute('aria-disabled');else e.setAttribute('aria-disabled','true')}
 document.getElementById('from-v').textContent=Q.from;document.getElementById('until-v').textContent=Q.until}
function togQuiet(){api('quiet',{on:!Q.on}).then(x=>{if(!x.ok){snack(x.error||'Could not save');return}Q=x.quiet;paint();snack(Q.on?'Quiet hours on':'Quiet hours off')})}
function openTime(id){if(!Q.on){snack('Turn on quiet hours first');return}const cur=id==='fromdlg'?Q.from:Q.until;for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o.dataset.v===cur;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}show(id)}
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function okTime(id){const el=document.querySelector('#'+id+' .opt.sel');hide(id);if(!el)return;const k=id==='fromdlg'?'from':'until';if(el.dataset.v===Q[k])return;
 api('quiet',{[k]:el.dataset.v}).then(x=>{if(!x.ok){snack(x.error||'Could not save');return}Q=x.quiet;paint();snack('Quiet hours '+(k==='from'?'start at ':'end at ')+Q[k])})}
function togN(id,el){if(el.getAttribute('aria-disabled')==='true'){snack('Attendance alerts are always on');return}api('notif',{id}).then(x=>{if(!x.ok){snack(x.error||'Could not save');return}el.setAttribute('aria-checked',String(x.on));el.querySelector('.switch').classList.toggle('on',x.on);snack('Saved')})}`;
  return renderPage({ title: 'Notifications', css: CSS, body, ctx, script });
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

function handleApi(st: SchoolState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'absence': {
      const d = { child: str(b.child), day: num(b.day), session: str(b.session), reason: str(b.reason), note: str(b.note) };
      const errors = absenceErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 101 + st.absences.filter((a) => !a.seeded).length;
      st.absences.push({ id, childId: d.child, day: d.day, session: d.session, reason: d.reason, note: cleanText(d.note), seeded: false, seq: st.seq });
      return json({ ok: true, id });
    }
    case 'lunch': {
      const c = childOf(st, str(b.child));
      const day = num(b.day);
      const o = c ? orderOf(st, c.id, day) : undefined;
      if (!c || !o) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      if (!lunchOpen(day)) return json({ ok: false, error: 'Orders for this day are closed' }, 409);
      const choice = str(b.choice);
      if (!menuOf(day).includes(choice)) return json({ ok: false, error: 'Choose a lunch' });
      o.choice = choice;
      o.saves += 1;
      o.seq = st.seq;
      return json({ ok: true });
    }
    case 'cancel': {
      const club = clubOf(st, str(b.club));
      const c = childOf(st, str(b.child));
      const bk = club && c ? bookingOf(st, club.id, c.id) : undefined;
      if (!club || !c || !bk) return json({ ok: false, error: 'This booking was already cancelled' }, 409);
      bk.cancelled = true;
      bk.seq = st.seq;
      st.balance += club.price;
      return json({ ok: true });
    }
    case 'book': {
      const club = clubOf(st, str(b.club));
      const c = childOf(st, str(b.child));
      if (!club || !c) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      if (bookingOf(st, club.id, c.id)) return json({ ok: false, error: `${c.first} is already booked` }, 409);
      if (!eligible(c, club)) return json({ ok: false, error: `This club is for ${yearsText(club)}` }, 409);
      if (placesLeft(st, club) <= 0) return json({ ok: false, error: 'This club is full' }, 409);
      if (st.balance < club.price) return json({ ok: false, error: 'Not enough balance. Top up at the school office.' }, 409);
      st.balance -= club.price;
      st.bookings.push({ id: 201 + st.bookings.filter((x) => !x.seeded).length, clubId: club.id, childId: c.id, seeded: false, cancelled: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'notif': {
      const n = notifOf(st, str(b.id));
      if (!n) return json({ ok: false, error: 'Unknown setting' }, 404);
      if (n.locked) return json({ ok: false, error: `${n.name} are always on` }, 409);
      n.on = !n.on;
      return json({ ok: true, on: n.on });
    }
    case 'quiet': {
      const q = st.quiet;
      if (b.on !== undefined) {
        if (typeof b.on !== 'boolean') return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
        q.on = b.on;
      }
      for (const k of ['from', 'until'] as const) {
        if (b[k] === undefined) continue;
        const v = str(b[k]);
        if (!TIMES.includes(v)) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
        if (!q.on) return json({ ok: false, error: 'Turn on quiet hours first' }, 409);
        q[k] = v;
      }
      q.changes += 1;
      return json({ ok: true, quiet: { on: q.on, from: q.from, until: q.until } });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleSchool(st: SchoolState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('t') ?? '';
  if (parts.length > 3) return notFound(CSS);
  if (head === undefined) return homePage(st, ctx);
  if (head === 'news' && arg && sub === undefined) {
    const n = newsOf(st, arg);
    if (!n) return notFound(CSS);
    n.read = true;
    return newsPage(ctx, n);
  }
  if (head === 'child' && arg && sub === undefined) {
    const c = childOf(st, arg);
    return c ? childPage(st, ctx, c) : notFound(CSS);
  }
  if (head === 'absence' && arg === 'new' && sub === undefined) return absenceForm(st, ctx, childOf(st, req.query.get('child') ?? ''));
  if (head === 'absences' && arg === undefined) return absencesPage(st, ctx, t, Number(req.query.get('id') ?? ''));
  if (head === 'lunches' && arg === undefined) return lunchesPage(st, ctx, req.query.get('child') ?? '', t, Number(req.query.get('day') ?? ''));
  if (head === 'lunches' && arg && sub !== undefined) {
    const c = childOf(st, arg);
    const day = Number(sub);
    if (!c || !Number.isInteger(day) || !orderOf(st, c.id, day)) return notFound(CSS);
    return lunchOpen(day) ? lunchDayPage(st, ctx, c, day) : { status: 303, redirect: `${ctx.base}/lunches?child=${c.id}` };
  }
  if (head === 'clubs' && arg === undefined) return clubsPage(st, ctx);
  if (head === 'clubs' && arg && sub === undefined) {
    const club = clubOf(st, arg);
    return club ? clubPage(st, ctx, club, t, req.query.get('child') ?? '') : notFound(CSS);
  }
  if (head === 'more' && arg === undefined) return morePage(st, ctx);
  if (head === 'notifications' && arg === undefined) return notificationsPage(st, ctx);
  return notFound(CSS);
}
