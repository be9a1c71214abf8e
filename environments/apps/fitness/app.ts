import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  activeBooking,
  CATEGORIES,
  CLASS_INFO,
  DATES,
  DAYS,
  EMAIL_RE,
  GUEST_PASSES_PER_MONTH,
  hasEnded,
  isFull,
  LATE_CANCEL_MIN,
  minutesUntil,
  spotsLeft,
  type Booking,
  type FitnessState,
  type GymClass,
} from './state.js';

const ACCENT = '#c2255c';
const CSS =
  kitCss(ACCENT, '#ffdeeb') +
  `
body{background:#f1f5f6}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#2b1020}
.bnav a{flex:1;display:flex;align-items:center;justify-content:center;font-size:15px;font-weight:bold;color:#d8b4c4}
.bnav a.on{color:#fff;box-shadow:inset 0 3px 0 #f06595}
.hello{padding:18px 16px 4px;font-size:24px;font-weight:bold}
.card{margin:12px;padding:16px 18px;background:#fff;border-radius:16px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.card h2{margin:0 0 6px;font-size:22px}
.card .d{font-size:16px;color:#495057;margin-top:4px}
.card.dark{background:#2b1020;color:#fff}
.card.dark .d{color:#ecd0dc}
.card.ok{background:#e6fcf5;border:1px solid #63e6be}
.promo{margin:12px;padding:16px 18px;border-radius:16px;background:linear-gradient(120deg,#c2255c,#f06595);color:#fff}
.promo b{font-size:19px}
.days{display:flex;gap:6px;padding:10px 8px;background:#fff;overflow-x:auto}
.days a{flex:1;min-width:48px;padding:8px 0;border-radius:12px;text-align:center;font-size:14px;color:#495057;border:2px solid transparent}
.days a b{display:block;font-size:19px;color:#1f2328}
.days a.on{background:${ACCENT};color:#fff0f6}
.days a.on b{color:#fff}
.cats{display:flex;gap:8px;padding:10px 12px;overflow-x:auto;white-space:nowrap}
.dayhead{padding:14px 16px 6px;font-size:18px;font-weight:bold}
.cls{display:flex;gap:14px;align-items:center;min-height:84px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3e8ea}
.cls .tm{width:72px;flex:none;font-size:16px;font-weight:bold;color:${ACCENT}}
.cls .info{flex:1;min-width:0}
.cls .n{font-size:18px;font-weight:bold}
.cls .s{font-size:15px;color:#5f6670;margin-top:3px}
.cls.past{opacity:.55}
.tag{flex:none;font-size:14px;font-weight:bold;border-radius:10px;padding:4px 9px;background:#fff0f6;color:${ACCENT}}
.tag.full{background:#fff4e6;color:#d9480f}
.tag.mine{background:#d3f9d8;color:#1b5e20}
.tag.gone{background:#f1f3f5;color:#868e96}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e9ecef;font-size:17px}
.kv .k{color:#5f6670;flex:none}
.kv .v{font-weight:bold;text-align:right}
.seg{margin:12px}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid #c92a2a;color:#c92a2a;font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;background:#fff}
.primary[disabled]{background:#e6a5bf!important}
.sheet h2{margin:8px 20px 4px;font-size:21px}
.sheet p{margin:6px 20px;font-size:16px;color:#495057}
.sheet .primary{margin:14px 16px 4px;width:calc(100% - 32px)}
.sheet .plain{text-align:center;color:${ACCENT};font-weight:bold}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.field .pick.unset{color:#868e96}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.intro{padding:14px 16px 0;font-size:16px;color:#495057}
`;

type Tab = 'home' | 'schedule' | 'mine' | 'profile';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'home', label: 'Home', href: `${ctx.base}/` },
      { id: 'schedule', label: 'Schedule', href: `${ctx.base}/schedule` },
      { id: 'mine', label: 'My classes', href: `${ctx.base}/bookings` },
      { id: 'profile', label: 'Profile', href: `${ctx.base}/profile` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Class schedule', `${ctx.base}/schedule`],
    ['Guest passes', `${ctx.base}/guests`],
    ['Club hours', `${ctx.base}/profile`],
  ]);

const short = (d: number): string => `${(DAYS[d] ?? '').slice(0, 3)}, ${(DATES[d] ?? '').replace('June', 'Jun')}`;
const long = (d: number): string => `${DAYS[d] ?? ''}, ${DATES[d] ?? ''}`;
const info = (c: GymClass): readonly [number, string, string, string] => CLASS_INFO[c.name] ?? [45, 'Studio A', 'Strength', ''];
const classOf = (st: FitnessState, b: Booking): GymClass | undefined => st.classes.find((c) => c.id === b.classId);
const upcoming = (st: FitnessState): { b: Booking; c: GymClass }[] =>
  st.bookings
    .filter((b) => b.active)
    .map((b) => ({ b, c: classOf(st, b) as GymClass }))
    .filter(({ c }) => c && !hasEnded(c))
    .sort((x, y) => minutesUntil(x.c) - minutesUntil(y.c));
const passesLeft = (st: FitnessState): number => GUEST_PASSES_PER_MONTH - st.guests.length;

function homePage(st: FitnessState, ctx: AppContext): AppResponse {
  const next = upcoming(st)[0];
  const body = `${appbar('PulseFit')}<div class="hello">Hi Alex</div>
<div class="card dark"><div class="d" style="margin:0">Up next</div>${
    next
      ? `<h2 style="margin:6px 0 2px">${esc(next.c.name)}</h2><div class="d">${short(next.c.day)} &middot; ${esc(next.c.time)} &middot; ${esc(info(next.c)[1])}</div>`
      : '<h2 style="margin:6px 0 2px">Nothing booked</h2>'
  }</div>
<div class="card"><h2>Class Pack 10</h2><div class="d">${st.credits} class credits left &middot; valid until August 31</div><div class="d">Home club: Riverside</div></div>
<a class="primary" href="${ctx.base}/schedule">Find a class</a>
<div class="promo"><b>June Challenge</b><br>Take 12 classes this month and get a free smoothie. You're at 5.</div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'PulseFit', css: CSS, body, ctx, root: true });
}

function schedulePage(st: FitnessState, ctx: AppContext, day: number, cat: string): AppResponse {
  const strip = DAYS.map(
    (d, i) => `<a class="${i === day ? 'on' : ''}" href="${ctx.base}/schedule?day=${i}&cat=${esc(cat)}" aria-label="${esc(long(i))}">${d.slice(0, 3)}<b>${(DATES[i] ?? '').split(' ')[1]}</b></a>`,
  ).join('');
  const chips = CATEGORIES.map((c) => `<a class="chip${c === cat ? ' on' : ''}" style="line-height:36px;display:inline-block" href="${ctx.base}/schedule?day=${day}&cat=${esc(c)}">${esc(c)}</a>`).join('');
  const list = st.classes
    .filter((c) => c.day === day && (cat === 'All' || info(c)[2] === cat))
    .sort((a, b) => a.startMin - b.startMin);
  const tag = (c: GymClass): string => {
    if (hasEnded(c)) return '<span class="tag gone">Ended</span>';
    if (activeBooking(st, c)) return '<span class="tag mine">Booked</span>';
    if (isFull(c, st)) return '<span class="tag full">Waitlist</span>';
    const left = spotsLeft(c, st);
    return `<span class="tag">${left <= 3 ? `${left} left` : 'Open'}</span>`;
  };
  const rows = list
    .map((c) => {
      const [min, studio] = info(c);
      return `<a class="cls${hasEnded(c) ? ' past' : ''}" href="${ctx.base}/class/${c.id}"><div class="tm">${esc(c.time)}</div><div class="info"><div class="n">${esc(c.name)}</div><div class="s">${min} min &middot; ${esc(studio)} &middot; ${esc(
        c.instructor,
      )}</div></div>${tag(c)}</a>`;
    })
    .join('');
  const body = `${appbar('Schedule')}<div class="days">${strip}</div><div class="cats">${chips}</div>
<div class="dayhead">${esc(long(day))}${day === 0 ? ' &middot; Today' : ''}</div>${rows || '<div class="empty">No classes of this type on this day.</div>'}
<div class="spacer"></div>${bottomNav(ctx, 'schedule')}${menu(ctx)}`;
  return renderPage({ title: 'Schedule', css: CSS, body, ctx, root: true });
}

function classPage(st: FitnessState, ctx: AppContext, c: GymClass, t: string): AppResponse {
  const [min, studio, , blurb] = info(c);
  const mine = activeBooking(st, c);
  const waiting = st.waitlist.includes(c.id);
  const full = isFull(c, st);
  let action: string;
  if (hasEnded(c)) action = '<button class="primary" disabled>This class has started</button>';
  else if (mine) action = `<a class="primary" href="${ctx.base}/booking/${mine.id}">Manage booking</a>`;
  else if (waiting) action = `<button class="primary" disabled>On the waitlist</button>`;
  else if (full) action = `<button class="primary" onclick="show('wait')">Join waitlist</button>`;
  else if (st.credits <= 0) action = '<button class="primary" disabled>No credits left</button>';
  else action = `<button class="primary" onclick="show('book')">Reserve a spot</button>`;
  const left = spotsLeft(c, st);
  const body = `${appbar(c.name, { back: true })}
${mine ? `<div class="card ok"><h2>You're booked</h2><div class="d">See you in ${esc(studio)}. It's in My classes.</div></div>` : ''}
<div class="card"><h2>${esc(c.name)}</h2><div class="d">${esc(long(c.day))} &middot; ${esc(c.time)}</div><div class="d">${esc(blurb)}</div></div>
<div class="kv"><span class="k">Length</span><span class="v">${min} min</span></div>
<div class="kv"><span class="k">Where</span><span class="v">${esc(studio)}, Riverside</span></div>
<div class="kv"><span class="k">Coach</span><span class="v">${esc(c.instructor)}</span></div>
<div class="kv"><span class="k">Spots</span><span class="v">${full ? 'Class is full' : `${left} of ${c.capacity} open`}</span></div>
${action}<div class="spacer"></div>${menu(ctx)}
<div id="book" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('book')"><div class="sheet" role="dialog" aria-label="Confirm booking"><h2>Confirm booking</h2>
<p><b>${esc(c.name)}</b>, ${esc(short(c.day))} at ${esc(c.time)}</p><p>Uses 1 class credit (${st.credits} left). Cancel at least 8 hours before to get it back.</p>
<button class="primary" id="book-ok" onclick="book()">Confirm booking</button><button class="plain" onclick="hide('book')">Not now</button></div></div>
${confirmDialog('wait', 'Join the waitlist?', `${c.name} is full. We'll book you automatically if a spot opens and use a credit then.`, 'Join', 'wait()')}
${t === 'booked' ? toast('Booked. Have a great class!') : t === 'wait' ? toast("You're on the waitlist") : ''}`;
  const script = `let busy=false;function book(){if(busy)return;busy=true;api('book',{id:${c.id}}).then(r=>{busy=false;if(r.ok)location.replace(BASE+'/class/${c.id}?toast=booked')})}
function wait(){api('waitlist',{id:${c.id}}).then(r=>{if(r.ok)location.replace(BASE+'/class/${c.id}?toast=wait')})}`;
  return renderPage({ title: c.name, css: CSS, body, ctx, script });
}

function bookingsPage(st: FitnessState, ctx: AppContext, past: boolean, t: string): AppResponse {
  const seg = `<div class="seg"><a class="${past ? '' : 'on'}" href="${ctx.base}/bookings" style="display:flex;flex:1;align-items:center;justify-content:center;height:50px;border:2px solid #d0d4da;border-radius:10px;font-weight:bold;${
    past ? '' : `border-color:${ACCENT};background:#ffdeeb`
  }">Upcoming</a><a href="${ctx.base}/bookings?past=1" style="display:flex;flex:1;align-items:center;justify-content:center;height:50px;border:2px solid #d0d4da;border-radius:10px;font-weight:bold;${
    past ? `border-color:${ACCENT};background:#ffdeeb` : ''
  }">History</a></div>`;
  let rows: string;
  if (past) {
    const attended: readonly (readonly [string, string, string])[] = [
      ['Spin 45', 'Sat, Jun 14 · 8:00 AM', 'Attended'],
      ['Vinyasa Flow', 'Fri, Jun 13 · 7:30 AM', 'Attended'],
      ['HIIT Core', 'Wed, Jun 11 · 12:00 PM', 'Late cancel'],
      ['Pilates Reformer', 'Sat, Jun 7 · 9:00 AM', 'Attended'],
    ];
    const cancelled = st.bookings
      .filter((b) => !b.active)
      .map((b) => classOf(st, b) as GymClass)
      .map((c) => `<div class="cls"><div class="info"><div class="n">${esc(c.name)}</div><div class="s">${esc(short(c.day))} &middot; ${esc(c.time)}</div></div><span class="tag gone">Cancelled</span></div>`)
      .join('');
    rows =
      cancelled +
      attended.map(([n, w, s]) => `<div class="cls"><div class="info"><div class="n">${esc(n)}</div><div class="s">${esc(w)}</div></div><span class="tag ${s === 'Attended' ? 'mine' : 'full'}">${s}</span></div>`).join('');
  } else {
    const list = upcoming(st);
    rows = list.length
      ? list
          .map(
            ({ b, c }) =>
              `<a class="cls" href="${ctx.base}/booking/${b.id}"><div class="tm">${esc(short(c.day).split(',')[0] ?? '')}<div style="font-size:14px;color:#5f6670">${esc(
                (DATES[c.day] ?? '').replace('June', 'Jun'),
              )}</div></div><div class="info"><div class="n">${esc(c.name)}</div><div class="s">${esc(c.time)} &middot; ${esc(info(c)[1])}</div></div><span class="muted">&rsaquo;</span></a>`,
          )
          .join('')
      : '<div class="empty">No upcoming classes. Book one from the Schedule.</div>';
  }
  const gone = t === 'cancelled' ? st.bookings.filter((b) => !b.active).sort((a, b) => b.seq - a.seq)[0] : undefined;
  const gc = gone ? classOf(st, gone) : undefined;
  const body = `${appbar('My classes')}${seg}
${gc ? `<div class="card ok"><h2>Booking cancelled</h2><div class="d">${esc(gc.name)}, ${esc(short(gc.day))} at ${esc(gc.time)}</div></div>` : ''}
${rows}<div class="spacer"></div>${bottomNav(ctx, 'mine')}${menu(ctx)}`;
  return renderPage({ title: 'My classes', css: CSS, body, ctx, root: true });
}

function bookingPage(st: FitnessState, ctx: AppContext, b: Booking): AppResponse {
  const c = classOf(st, b) as GymClass;
  const [min, studio] = info(c);
  const late = minutesUntil(c) < LATE_CANCEL_MIN;
  const body = `${appbar('Booking', { back: true })}
<div class="card"><h2>${esc(c.name)}</h2><div class="d">${esc(long(c.day))}</div><div class="d">${esc(c.time)} &middot; ${min} min</div></div>
<div class="kv"><span class="k">Where</span><span class="v">${esc(studio)}, Riverside</span></div>
<div class="kv"><span class="k">Coach</span><span class="v">${esc(c.instructor)}</span></div>
<div class="kv"><span class="k">Paid with</span><span class="v">1 class credit</span></div>
<div class="intro">Check in at the front desk up to 15 minutes before class. Doors close 5 minutes after the start.</div>
<button class="outline" onclick="show('cancel')">Cancel booking</button><div class="spacer"></div>${menu(ctx)}
${confirmDialog(
  'cancel',
  'Cancel this booking?',
  `${c.name} on ${long(c.day)} at ${c.time}. ${late ? 'This is a late cancellation: your credit will not be returned.' : 'Your class credit will be returned.'}`,
  'Yes, cancel',
  'cancel()',
)}`;
  const script = `function cancel(){api('cancel',{id:${b.id}}).then(r=>{if(r.ok)location.replace(BASE+'/bookings?toast=cancelled')})}`;
  return renderPage({ title: 'Booking', css: CSS, body, ctx, script });
}

function profilePage(st: FitnessState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string, href?: string): string =>
    href
      ? `<a class="row" href="${href}"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div><span class="muted">&rsaquo;</span></a>`
      : `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Profile')}
<div class="row"><div class="av" style="background:${ACCENT}">AK</div><div class="info"><div class="t">Alex Kim</div><div class="s">Member since 2023 &middot; #40721</div></div></div>
<div class="section">Membership</div>${row('Class Pack 10', `${st.credits} credits left, valid until August 31`)}${row('Home club', 'Riverside · Open 5 AM – 11 PM')}
<div class="section">Friends</div>${row('Guest passes', `${passesLeft(st)} of ${GUEST_PASSES_PER_MONTH} left in June`, `${ctx.base}/guests`)}${row('Refer a friend', 'You both get 2 free classes')}
<div class="section">Account</div>${row('Payment', 'Visa ••4242')}${row('Notifications', 'Class reminders 2 hours before')}${row('Help and feedback', 'FAQ, contact the club')}
<div class="spacer"></div>${bottomNav(ctx, 'profile')}${menu(ctx)}`;
  return renderPage({ title: 'Profile', css: CSS, body, ctx, root: true });
}

function guestsPage(st: FitnessState, ctx: AppContext): AppResponse {
  const left = passesLeft(st);
  const rows = st.guests
    .map((g) => `<div class="row"><div class="av" style="background:#f06595">${esc(g.name.split(' ').map((p) => p[0]).join(''))}</div><div class="info"><div class="t">${esc(g.name)}</div><div class="s">${esc(g.email)} &middot; ${g.day < 0 ? 'Visited Jun 5' : esc(`Invited for ${short(g.day)}`)}</div></div></div>`)
    .join('');
  const body = `${appbar('Guest passes', { back: true })}
<div class="card"><h2>${left} of ${GUEST_PASSES_PER_MONTH} passes left</h2><div class="d">Bring a friend to any class or the gym floor. Passes reset on July 1.</div></div>
<div class="section">Used in June</div>${rows}
${left > 0 ? `<a class="primary" href="${ctx.base}/guests/new">Invite a guest</a>` : '<button class="primary" disabled>No passes left this month</button>'}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Guest passes', css: CSS, body, ctx });
}

function guestFormPage(ctx: AppContext): AppResponse {
  const options = DAYS.map((_, i) => long(i));
  const body = `${appbar('Invite a guest', { back: true, menu: false })}
<div class="intro">Your guest gets an email with a pass for one visit. They need to show ID at the front desk.</div>
<div class="field" id="f-name"><label for="name">Guest's full name</label><input id="name" type="text" autocomplete="off"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-email"><label for="email">Guest's email</label><input id="email" type="email" autocomplete="off" placeholder="name@example.com"><div class="ferr" id="e-email"></div></div>
<div class="field" id="f-day"><label>Visit day</label><button class="pick unset" onclick="show('days')"><span id="day-v">Choose a day</span><span>&#9662;</span></button><div class="ferr" id="e-day"></div></div>
<button class="primary" onclick="send()">Send pass</button><div class="spacer"></div>
${pickerDialog('days', 'When are they coming?', options, '', 'pickDay')}`;
  const script = `const V={day:-1};const OPTS=${JSON.stringify(options)};
function pickDay(v){V.day=OPTS.indexOf(v);const s=document.getElementById('day-v');s.textContent=v;s.parentElement.classList.remove('unset');
 for(const o of document.querySelectorAll('#days .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('days')}
function send(){for(const k of ['name','email','day']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('guest',{name:document.getElementById('name').value,email:document.getElementById('email').value,day:V.day}).then(r=>{if(r.ok){location.replace(BASE+'/guests/sent');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Invite a guest', css: CSS, body, ctx, script });
}

function guestSentPage(st: FitnessState, ctx: AppContext): AppResponse {
  const g = st.guests[st.guests.length - 1];
  if (!g || g.seeded) return { status: 303, redirect: `${ctx.base}/guests` };
  const body = `${appbar('Pass sent', { menu: false })}
<div class="card ok"><h2>Guest pass sent</h2><div class="d">We emailed ${esc(g.email)} a pass for ${esc(long(g.day))}.</div></div>
<div class="kv"><span class="k">Guest</span><span class="v">${esc(g.name)}</span></div>
<div class="kv"><span class="k">Visit</span><span class="v">${esc(long(g.day))}</span></div>
<a class="primary" href="${ctx.base}/guests">Done</a>`;
  return renderPage({ title: 'Pass sent', css: CSS, body, ctx });
}

function handleApi(st: FitnessState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  const c = st.classes.find((x) => x.id === Number(b.id));
  switch (action) {
    case 'book': {
      if (!c) return json({ ok: false, error: 'unknown class' }, 404);
      if (hasEnded(c) || isFull(c, st) || activeBooking(st, c) || st.credits <= 0) return json({ ok: false, error: 'cannot book this class' }, 409);
      st.credits -= 1;
      st.bookings.push({ id: 601 + st.bookings.length, classId: c.id, active: true, seeded: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'waitlist': {
      if (!c) return json({ ok: false, error: 'unknown class' }, 404);
      if (!st.waitlist.includes(c.id)) st.waitlist.push(c.id);
      return json({ ok: true });
    }
    case 'cancel': {
      const bk = st.bookings.find((x) => x.id === Number(b.id) && x.active);
      const cl = bk && classOf(st, bk);
      if (!bk || !cl) return json({ ok: false, error: 'unknown booking' }, 404);
      bk.active = false;
      bk.seq = st.seq;
      if (minutesUntil(cl) >= LATE_CANCEL_MIN) st.credits += 1;
      return json({ ok: true });
    }
    case 'guest': {
      const name = str(b.name).trim().replace(/\s+/g, ' ');
      const email = str(b.email).trim();
      const day = Number(b.day);
      const errors: Record<string, string> = {};
      if (passesLeft(st) <= 0) return json({ ok: false, errors: { name: 'No guest passes left this month' } });
      if (!name) errors.name = "Enter your guest's name";
      else if (!name.includes(' ')) errors.name = 'Enter first and last name';
      else if (st.guests.some((g) => g.name.toLowerCase() === name.toLowerCase())) errors.name = `${name} already had a guest pass in June`;
      if (!email) errors.email = 'Enter an email so we can send the pass';
      else if (!EMAIL_RE.test(email)) errors.email = 'That email address doesn\'t look right';
      if (!Number.isInteger(day) || day < 0 || day >= DAYS.length) errors.day = 'Choose the day of the visit';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.guests.push({ name, email, day, seeded: false });
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleFitness(st: FitnessState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'schedule') {
    const day = Number(req.query.get('day') ?? 0);
    const cat = req.query.get('cat') ?? 'All';
    return schedulePage(st, ctx, Number.isInteger(day) && day >= 0 && day < 7 ? day : 0, CATEGORIES.includes(cat) ? cat : 'All');
  }
  if (head === 'bookings') return bookingsPage(st, ctx, req.query.get('past') === '1', t);
  if (head === 'profile') return profilePage(st, ctx);
  if (head === 'guests' && arg === undefined) return guestsPage(st, ctx);
  if (head === 'guests' && arg === 'new') return guestFormPage(ctx);
  if (head === 'guests' && arg === 'sent') return guestSentPage(st, ctx);
  const id = Number(arg);
  const cls = head === 'class' ? st.classes.find((x) => x.id === id) : undefined;
  if (cls) return classPage(st, ctx, cls, t);
  const bk = head === 'booking' ? st.bookings.find((x) => x.id === id && x.active) : undefined;
  if (bk) return bookingPage(st, ctx, bk);
  if (head === 'booking') return { status: 303, redirect: `${ctx.base}/bookings` };
  return notFound(CSS);
}
