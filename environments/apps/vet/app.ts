import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  ageOf,
  BOOK_DAYS,
  CANCEL_REASONS,
  CARD,
  CLINIC,
  CLINIC_ADDRESS,
  CLINIC_PHONE,
  dayFor,
  dayLabel,
  dayOfMonth,
  DENTAL,
  EXOTICS_VET,
  FULFILLMENTS,
  HOME_ADDRESS,
  HOME_CITY,
  isExotic,
  LATE_CANCEL_FEE_CENTS,
  money,
  monthShort,
  NAME_MAX,
  NOW_MIN,
  offeredTimes,
  OWNER,
  OWNER_EMAIL,
  PAST_VISITS,
  parseWeight,
  petErrors,
  petOf,
  refillable,
  refillCents,
  SHIPPING_CENTS,
  shortDay,
  SPECIES,
  SUPPLIES,
  supplyCents,
  toMin,
  VACCINES,
  vetFor,
  visitInfo,
  VISIT_TYPES,
  weekdayOf,
  type Appointment,
  type Medication,
  type Pet,
  type VetState,
} from './state.js';

const ACCENT = '#0b7285';
const CSS =
  kitCss(ACCENT, '#c5f6fa') +
  `
body{background:#f1f6f7}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #d5e3e6}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5c6f73}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#10383f}
.hello .s{font-size:16px;font-weight:normal;color:#4f6469;margin-top:4px}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #d5e3e6}
.card h2{margin:0 0 6px;font-size:22px}
.card .d{font-size:16px;color:#43575c;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.gone{background:#fff5f5;border-color:#ffc9c9}
.quick{display:flex;gap:10px;margin:0 12px}
.quick a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:6px;height:92px;border-radius:14px;background:#fff;border:1px solid #d5e3e6;font-size:16px;font-weight:bold;color:#10383f;text-align:center;padding:0 6px}
.quick a .g{font-size:26px;color:${ACCENT};line-height:28px}
.seg{display:flex;gap:10px;margin:4px 12px 8px}
.seg a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #c9d8db;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#3c4f53}
.seg a.on{border-color:${ACCENT};background:#c5f6fa;color:#0b4a56}
.ap{display:flex;gap:14px;align-items:center;min-height:84px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ecee}
.ap .date{width:52px;flex:none;text-align:center;border-radius:10px;background:#e3fafc;color:${ACCENT};padding:6px 0;font-size:13px;font-weight:bold;line-height:16px}
.ap .date b{display:block;font-size:22px;line-height:26px}
.ap .info{flex:1;min-width:0}
.ap .n{font-size:18px;font-weight:bold}
.ap .s{font-size:15px;color:#4f6469;margin-top:2px}
.ap.off .date{background:#f1f3f5;color:#868e96}
.ap.off .n{color:#868e96;text-decoration:line-through}
.pet{display:flex;gap:14px;align-items:center;min-height:78px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ecee}
.pet .info{flex:1;min-width:0}
.pet .n{font-size:18px;font-weight:bold}
.pet .s{font-size:15px;color:#4f6469;margin-top:2px}
.pet .go,.rx .go{font-size:22px;color:#9fb3b7}
.rx{display:flex;gap:14px;align-items:center;min-height:72px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ecee}
.rx .info{flex:1;min-width:0}
.rx .n{font-size:17px;font-weight:bold}
.rx .s{font-size:15px;color:#4f6469;margin-top:2px}
.rx .s.warn{color:#c92a2a;font-weight:bold}
.rx .s.wait{color:#e67700;font-weight:bold}
.vx{display:flex;justify-content:space-between;gap:12px;padding:13px 16px;background:#fff;border-bottom:1px solid #e3ecee;font-size:17px}
.vx .due{font-size:15px;color:#4f6469;text-align:right}
.vx .due.s-due{color:#e67700;font-weight:bold}
.vx .due.s-overdue{color:#c92a2a;font-weight:bold}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e3ecee;font-size:17px}
.kv .k{color:#4f6469;flex:none}
.kv .v{font-weight:bold;text-align:right}
.intro{padding:14px 16px 4px;font-size:16px;color:#43575c}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.primary[disabled]{background:#99c8d0!important}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:70px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ecee;text-align:left}
.opt .info{flex:1}
.opt .t{font-size:18px;font-weight:bold}
.opt .s{font-size:15px;color:#4f6469;margin-top:3px}
.opt .p{font-size:17px;font-weight:bold;flex:none}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.dialog .opt{min-height:56px;padding:10px 4px;border-bottom:1px solid #f1f3f5}
.dialog .opt .t{font-size:17px}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff;text-align:left}
.field .pick.unset{color:#868e96}
.field.bad input,.field.bad .pick,.field.bad textarea{border-color:#c92a2a}
.field textarea{height:96px}
.field .hint{font-size:15px;color:#4f6469;margin-top:6px}
.field .unit{display:flex;align-items:center;gap:10px}
.field .unit span{font-size:18px;font-weight:bold;color:#4f6469}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.field .seg{margin:0}
.field .seg button{flex:1;height:48px;border:2px solid #c9d8db;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#3c4f53}
.field .seg button.on{border-color:${ACCENT};background:#c5f6fa;color:#0b4a56}
.dstrip{display:flex;gap:8px;overflow-x:auto;padding:10px 12px}
.dstrip a,.dstrip span{flex:none;width:62px;height:70px;border-radius:12px;border:2px solid #c9d8db;background:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:14px;font-weight:bold;color:#3c4f53}
.dstrip b{font-size:22px}
.dstrip a.on{border-color:${ACCENT};background:${ACCENT};color:#fff}
.dstrip span.off{background:#f1f3f5;color:#adb5bd;border-style:dashed}
.dayh{padding:8px 16px 0;font-size:20px;font-weight:bold;color:#10383f}
.times .opt{min-height:62px}
.times .opt.sel{background:#e3fafc}
.footer{position:fixed;left:0;right:0;bottom:0;z-index:30;background:#fff;border-top:1px solid #d5e3e6;padding:4px 0}
.footer .sum{padding:8px 16px 0;font-size:15px;color:#43575c;min-height:22px}
.footer .primary{margin:8px 12px}
.av{color:#fff}
.dialog .reasons .opt{min-height:50px}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
`;

type Tab = 'home' | 'visits' | 'pets' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'visits', label: 'Visits', glyph: '&#9638;', href: `${ctx.base}/visits` },
      { id: 'pets', label: 'Pets', glyph: '&#10047;', href: `${ctx.base}/pets` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Prescriptions', `${ctx.base}/rx`],
    ['Past visits', `${ctx.base}/visits/past`],
    ['Clinic and account', `${ctx.base}/account`],
  ]);

const PET_COLORS: Readonly<Record<string, string>> = { Dog: '#e8590c', Cat: '#7048e8', Rabbit: '#2f9e44', 'Guinea pig': '#c2255c', Ferret: '#5c940d', Bird: '#1971c2', Reptile: '#0c8599', Other: '#495057' };
const avatar = (p: Pet, size = 46): string =>
  `<div class="av" style="background:${PET_COLORS[p.species] ?? '#495057'};width:${size}px;height:${size}px;border-radius:${size / 2}px;font-size:${Math.round(size * 0.42)}px">${esc(p.name[0]?.toUpperCase() ?? '?')}</div>`;
const petLine = (p: Pet): string => `${p.species} · ${p.breed}`;
const petFacts = (p: Pet): string => [p.sex, p.born ? ageOf(p.born) : '', `${p.weightLb} lb`].filter(Boolean).join(' · ');
const petName = (st: VetState, id: number): string => petOf(st, id)?.name ?? 'Pet';
const upcoming = (st: VetState): Appointment[] =>
  st.appointments.filter((a) => a.status === 'booked').sort((a, b) => a.day - b.day || toMin(a.time) - toMin(b.time) || a.id - b.id);
const timeText = (a: { visitType: string; time: string }): string => (a.visitType === DENTAL ? `${a.time} drop-off` : a.time);
const minutesUntil = (a: Appointment): number => a.day * 24 * 60 + toMin(a.time) - NOW_MIN;

function apRow(st: VetState, ctx: AppContext, a: Appointment): string {
  const gone = a.status === 'cancelled';
  return `<a class="ap${gone ? ' off' : ''}" href="${ctx.base}/v/${a.id}" data-pet="${esc(petName(st, a.petId))}" data-day="${esc(dayLabel(a.day))}"><div class="date">${esc(weekdayOf(a.day).slice(0, 3))}<b>${dayOfMonth(
    a.day,
  )}</b>${esc(monthShort(a.day))}</div><div class="info"><div class="n">${esc(petName(st, a.petId))}</div><div class="s">${esc(a.visitType)}${gone ? ' · Cancelled' : ''}</div><div class="s">${esc(
    timeText(a),
  )} · ${esc(a.vet)}</div></div></a>`;
}

function homePage(st: VetState, ctx: AppContext): AppResponse {
  const next = upcoming(st)[0];
  const due = st.pets.flatMap((p) => (VACCINES[p.name] ?? []).filter(([, , s]) => s !== 'ok').map(([v, when, s]) => ({ p, v, when, s })));
  const body = `${appbar('PawPoint')}
<div class="hello">Hi, ${esc(OWNER.split(' ')[0] ?? '')}<div class="s">${esc(CLINIC)}</div></div>
${
  next
    ? `<a class="card" href="${ctx.base}/v/${next.id}"><div class="lbl">Up next</div><h2>${esc(petName(st, next.petId))} · ${esc(next.visitType)}</h2><div class="d">${esc(shortDay(next.day))} · ${esc(timeText(next))} · ${esc(next.vet)}</div></a>`
    : `<div class="card"><div class="lbl">Up next</div><div class="d">No visits booked.</div></div>`
}
<div class="quick"><a href="${ctx.base}/book"><span class="g">+</span>Book a visit</a><a href="${ctx.base}/rx"><span class="g">&#8478;</span>Refill a prescription</a></div>
${due.length ? `<div class="section">Reminders</div>${due.map(({ p, v, when, s }) => `<a class="vx" href="${ctx.base}/p/${p.id}"><span>${esc(p.name)}: ${esc(v)}</span><span class="due s-${s}">${esc(when)}</span></a>`).join('')}` : ''}
<div class="card"><div class="lbl">Your clinic</div><h2 style="font-size:19px">${esc(CLINIC)}</h2><div class="d">${esc(CLINIC_ADDRESS)}</div><div class="d">Open today 8 AM – 6 PM · ${esc(CLINIC_PHONE)}</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'PawPoint', css: CSS, body, ctx, root: true });
}

function visitsPage(st: VetState, ctx: AppContext, past: boolean, t: string): AppResponse {
  const up = upcoming(st);
  const seg = `<div class="seg"><a class="${past ? '' : 'on'}" href="${ctx.base}/visits">Upcoming (${up.length})</a><a class="${past ? 'on' : ''}" href="${ctx.base}/visits/past">Past</a></div>`;
  let rows: string;
  if (past) {
    const gone = st.appointments.filter((a) => a.status === 'cancelled').sort((a, b) => b.seq - a.seq);
    rows = `${gone.length ? `<div class="section">Cancelled</div>${gone.map((a) => apRow(st, ctx, a)).join('')}` : ''}<div class="section">Earlier visits</div>${PAST_VISITS.map(
      ([pet, type, day, vet, summary]) =>
        `<div class="ap"><div class="date">${esc(weekdayOf(day).slice(0, 3))}<b>${dayOfMonth(day)}</b>${esc(monthShort(day))}</div><div class="info"><div class="n">${esc(pet)}</div><div class="s">${esc(type)} · ${esc(
          vet,
        )}</div><div class="s">${esc(summary)}</div></div></div>`,
    ).join('')}`;
  } else rows = up.length ? up.map((a) => apRow(st, ctx, a)).join('') : '<div class="empty">No upcoming visits</div>';
  const body = `${appbar('Visits')}
<a class="primary" href="${ctx.base}/book">Book a visit</a>${seg}${rows}
<div class="spacer"></div>${bottomNav(ctx, 'visits')}${menu(ctx)}${t === 'cancelled' ? toast('Appointment cancelled') : ''}`;
  return renderPage({ title: 'Visits', css: CSS, body, ctx, root: true });
}

function visitPage(st: VetState, ctx: AppContext, a: Appointment, t: string): AppResponse {
  const p = petOf(st, a.petId);
  const info = visitInfo(a.visitType);
  const gone = a.status === 'cancelled';
  const late = !gone && minutesUntil(a) < 24 * 60;
  const top =
    t === 'booked' && !gone
      ? `<div class="card ok"><h2>You're booked!</h2><div class="d">We emailed the details to ${esc(OWNER_EMAIL)} and will text you a reminder the day before.</div></div>`
      : gone
        ? `<div class="card gone"><h2>Appointment cancelled</h2><div class="d">Reason: ${esc(a.cancelReason)}</div></div>`
        : '';
  const dur = info && info[1] ? `${info[1]} min` : 'Drop-off, home by 5 PM';
  const action = gone
    ? `<a class="outline" href="${ctx.base}/book?pet=${a.petId}">Book another visit</a>`
    : `${late ? `<div class="card note"><div class="d" style="margin:0">This visit is less than 24 hours away. Cancelling now costs ${money(LATE_CANCEL_FEE_CENTS)}.</div></div>` : ''}
<button class="outline danger" onclick="openCancel()">Cancel appointment</button>`;
  const reasons = CANCEL_REASONS.map(
    (r) => `<button class="opt" role="radio" aria-checked="false" data-v="${esc(r)}" onclick="pickReason(this)"><span class="rad"></span><div class="info"><div class="t">${esc(r)}</div></div></button>`,
  ).join('');
  const dialog = gone
    ? ''
    : `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel this appointment?"><h2>Cancel this appointment?</h2>
<p>${esc(petName(st, a.petId))}'s ${esc(a.visitType.toLowerCase())} on ${esc(dayLabel(a.day))} at ${esc(a.time)} will be cancelled.${late ? ` A ${money(LATE_CANCEL_FEE_CENTS)} late cancellation fee will be charged to ${esc(CARD)}.` : ''}</p>
<p style="margin-bottom:4px"><b>Why are you cancelling?</b></p><div class="reasons" role="radiogroup">${reasons}</div><div class="err" id="cerr"></div>
<div class="acts"><button onclick="hide('cancel')">Keep it</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Yes, cancel</button></div></div></div>`;
  const body = `${appbar('Appointment', { back: true })}${top}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${p ? avatar(p) : ''}<div><h2 style="margin:0">${esc(petName(st, a.petId))} · ${esc(a.visitType)}</h2>
<div class="d">${esc(dayLabel(a.day))} · ${esc(timeText(a))}</div></div></div></div>
<div class="section">Appointment details</div>
<div class="kv"><span class="k">Pet</span><span class="v">${esc(p ? `${p.name} (${p.species})` : 'Pet')}</span></div>
<div class="kv"><span class="k">Visit</span><span class="v">${esc(a.visitType)}</span></div>
<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(a.day))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v">${esc(a.time)} (${esc(dur)})</span></div>
<div class="kv"><span class="k">Vet</span><span class="v">${esc(a.vet)}</span></div>
<div class="kv"><span class="k">Clinic</span><span class="v">${esc(CLINIC_ADDRESS)}</span></div>
<div class="kv"><span class="k">Estimated cost</span><span class="v">${info ? money(info[2]) : '—'}</span></div>
${action}
<div class="spacer"></div>${bottomNav(ctx, 'visits')}${menu(ctx)}${dialog}${t === 'booked' && !gone ? toast('Visit booked') : ''}`;
  const script = `let R='';
function openCancel(){R='';for(const o of document.querySelectorAll('.reasons .opt')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('cerr').textContent='';show('cancel')}
function pickReason(el){R=el.dataset.v;document.getElementById('cerr').textContent='';for(const o of document.querySelectorAll('.reasons .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doCancel(){if(!R){document.getElementById('cerr').textContent='Choose a reason';return}if(busy)return;busy=true;
 api('cancel',{id:${a.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/${a.id}?toast=cancelled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`;
  return renderPage({ title: 'Appointment', css: CSS, body, ctx, script });
}

/** A radio list in a dialog whose options have a title and a line under it; `fn(value)` runs on a pick. */
function optionDialog(id: string, title: string, opts: readonly { v: string; t: string; s: string }[], current: string, fn: string): string {
  const rows = opts
    .map(
      (o) =>
        `<button class="opt${o.v === current ? ' sel' : ''}" role="radio" aria-checked="${o.v === current}" data-v="${esc(o.v)}" data-t="${esc(o.t)}" onclick="${fn}(this)"><span class="rad"></span><div class="info"><div class="t">${esc(
          o.t,
        )}</div><div class="s">${esc(o.s)}</div></div></button>`,
    )
    .join('');
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>${rows}
<div class="acts"><button onclick="hide('${id}')">Cancel</button></div></div></div>`;
}

function bookPage(st: VetState, ctx: AppContext, prefill: number): AppResponse {
  const d = st.draft;
  const petId = petOf(st, prefill) ? prefill : d.petId;
  const pet = petOf(st, petId);
  const type = d.visitType;
  const petOpts = st.pets.map((p) => ({ v: String(p.id), t: p.name, s: petLine(p) }));
  const typeOpts = VISIT_TYPES.map(([n, min, cents, about]) => ({ v: n, t: n, s: `${about} · ${min ? `${min} min · ` : ''}${n === 'Vaccinations' ? 'from ' : ''}${money(cents)}` }));
  const body = `${appbar('Book a visit', { back: true, menu: false })}
<div class="intro">At ${esc(CLINIC)}. For emergencies, call ${esc(CLINIC_PHONE)} now.</div>
<div class="field" id="f-pet"><label>Pet</label><button class="pick${pet ? '' : ' unset'}" onclick="show('pets')"><span id="pet-v">${esc(pet ? pet.name : 'Choose a pet')}</span><span>&#9662;</span></button><div class="ferr" id="e-pet"></div></div>
<div class="field" id="f-type"><label>Reason for visit</label><button class="pick${type ? '' : ' unset'}" onclick="show('types')"><span id="type-v">${esc(type || 'Choose a reason')}</span><span>&#9662;</span></button><div class="hint" id="type-h">${esc(
    visitInfo(type)?.[3] ?? '',
  )}</div><div class="ferr" id="e-type"></div></div>
<div class="field" id="f-notes"><label for="notes">Notes for the vet (optional)</label><textarea id="notes" maxlength="300" placeholder="Symptoms, questions, anything we should know">${esc(d.notes)}</textarea></div>
<button class="primary" onclick="next()">Continue</button><div class="spacer"></div>
${optionDialog('pets', 'Who is the visit for?', petOpts, pet ? String(pet.id) : '', 'pickPet')}
${optionDialog('types', 'Reason for visit', typeOpts, type, 'pickType')}`;
  const about = Object.fromEntries(VISIT_TYPES.map(([n, , , a]) => [n, a]));
  const script = `const V={pet:${pet ? pet.id : 0},type:${JSON.stringify(type)}};const ABOUT=${JSON.stringify(about)};
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(id)}
function pickPet(el){V.pet=Number(el.dataset.v);const s=document.getElementById('pet-v');s.textContent=el.dataset.t;s.parentElement.classList.remove('unset');document.getElementById('e-pet').textContent='';document.getElementById('f-pet').classList.remove('bad');mark('pets',el)}
function pickType(el){V.type=el.dataset.v;const s=document.getElementById('type-v');s.textContent=el.dataset.t;s.parentElement.classList.remove('unset');document.getElementById('type-h').textContent=ABOUT[V.type]||'';document.getElementById('e-type').textContent='';document.getElementById('f-type').classList.remove('bad');mark('types',el)}
let busy=false;function next(){if(busy)return;for(const k of ['pet','type']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('draft',{pet:V.pet,type:V.type,notes:document.getElementById('notes').value}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/book/time';return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Book a visit', css: CSS, body, ctx, script });
}

const draftReady = (st: VetState): boolean => !!petOf(st, st.draft.petId) && !!visitInfo(st.draft.visitType);

function timePage(st: VetState, ctx: AppContext, dayQ: number): AppResponse {
  if (!draftReady(st)) return { status: 303, redirect: `${ctx.base}/book` };
  const d = st.draft;
  const pet = petOf(st, d.petId);
  const allowed = BOOK_DAYS.filter((x) => dayFor(pet, x));
  const day = allowed.includes(dayQ) ? dayQ : allowed.includes(d.day) ? d.day : (allowed[0] ?? 1);
  const strip = BOOK_DAYS.map((x) => {
    const inner = `${esc(weekdayOf(x).slice(0, 3))}<b>${dayOfMonth(x)}</b>`;
    return allowed.includes(x)
      ? `<a class="${x === day ? 'on' : ''}" href="${ctx.base}/book/time?day=${x}" aria-label="${esc(dayLabel(x))}">${inner}</a>`
      : `<span class="off" aria-disabled="true" aria-label="${esc(dayLabel(x))}, not available">${inner}</span>`;
  }).join('');
  const times = offeredTimes(st, day, d.visitType);
  const chosen = d.day === day && times.includes(d.time) ? d.time : '';
  const length = visitInfo(d.visitType)?.[1] ?? 0;
  const chip = (t: string): string =>
    `<button class="opt${t === chosen ? ' sel' : ''}" role="radio" aria-checked="${t === chosen}" data-t="${esc(t)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(
      d.visitType === DENTAL ? `${t} drop-off` : t,
    )}</div><div class="s">${esc(vetFor(pet, day, t))}${length ? ` · ${length} min` : ''}</div></div></button>`;
  const am = times.filter((t) => toMin(t) < 12 * 60);
  const pm = times.filter((t) => toMin(t) >= 12 * 60);
  const notes = [
    pet && isExotic(pet) ? `${pet.species === 'Other' ? 'Exotic pets' : `${pet.species}s`} are seen by ${EXOTICS_VET}, our exotics vet, on Tuesdays and Thursdays.` : '',
    d.visitType === DENTAL ? `Dental cleanings are drop-offs: bring ${pet?.name ?? 'your pet'} in at 8:00 AM with no breakfast. We'll call when it's time to pick up.` : '',
  ].filter(Boolean);
  const body = `${appbar('Choose a time', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#10383f">Choose a day and time</b><br>${esc(pet?.name ?? '')} · ${esc(d.visitType)}</div>
${notes.map((n) => `<div class="card note" style="margin:8px 12px;padding:12px 14px"><div class="d" style="margin:0">${esc(n)}</div></div>`).join('')}
<div class="dstrip">${strip}</div>
<div class="dayh">${esc(dayLabel(day))}</div>
${times.length ? '' : `<div class="empty">No times left on this day. Try another day.</div>`}
${am.length ? `<div class="section">Morning</div><div class="times" role="radiogroup">${am.map(chip).join('')}</div>` : ''}
${pm.length ? `<div class="section">Afternoon</div><div class="times" role="radiogroup">${pm.map(chip).join('')}</div>` : ''}
<div class="spacer" style="height:150px"></div>
<div class="footer"><div class="sum" id="sum">${chosen ? esc(`${shortDay(day)} at ${chosen}`) : 'Pick a time'}</div><button class="primary" id="go" ${chosen ? '' : 'disabled'} onclick="next()">Continue</button></div>`;
  const script = `let T=${JSON.stringify(chosen)};const DAY=${day};const SHORT=${JSON.stringify(shortDay(day))};
function pick(el){T=el.dataset.t;for(const o of document.querySelectorAll('.times button')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}
 document.getElementById('sum').textContent=SHORT+' at '+T;document.getElementById('go').disabled=false}
let busy=false;function next(){if(!T||busy)return;busy=true;api('slot',{day:DAY,time:T}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/book/review';return}document.getElementById('sum').textContent=r.error||'Pick another time'})}`;
  return renderPage({ title: 'Choose a time', css: CSS, body, ctx, script });
}

function reviewPage(st: VetState, ctx: AppContext): AppResponse {
  const d = st.draft;
  const pet = petOf(st, d.petId);
  const info = visitInfo(d.visitType);
  if (!pet || !info || !offeredTimes(st, d.day, d.visitType).includes(d.time)) return { status: 303, redirect: `${ctx.base}/book${draftReady(st) ? '/time' : ''}` };
  const body = `${appbar('Review and book', { back: true, menu: false })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${avatar(pet)}<div><h2 style="margin:0">${esc(pet.name)}</h2><div class="d">${esc(petLine(pet))}</div></div></div></div>
<div class="kv"><span class="k">Visit</span><span class="v">${esc(d.visitType)}</span></div>
<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(d.day))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v">${esc(timeText(d))}</span></div>
<div class="kv"><span class="k">Vet</span><span class="v">${esc(vetFor(pet, d.day, d.time))}</span></div>
<div class="kv"><span class="k">Clinic</span><span class="v">${esc(CLINIC_ADDRESS)}</span></div>
<div class="kv"><span class="k">Estimated cost</span><span class="v">${d.visitType === 'Vaccinations' ? 'from ' : ''}${money(info[2])}</span></div>
${d.notes ? `<div class="kv"><span class="k">Notes</span><span class="v">${esc(d.notes)}</span></div>` : ''}
<div class="intro">You pay at the clinic after the visit. Free cancellation up to 24 hours before; later cancellations cost ${money(LATE_CANCEL_FEE_CENTS)} (${esc(CARD)}).</div>
<div class="error" id="err"></div>
<button class="primary" onclick="book()">Confirm booking</button>
<a class="outline" href="${ctx.base}/book/time?day=${d.day}">Change time</a><div class="spacer"></div>`;
  const script = `let busy=false;function book(){if(busy)return;busy=true;api('book',{}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/'+r.id+'?toast=booked');return}document.getElementById('err').textContent=r.error||'Could not book'})}`;
  return renderPage({ title: 'Review and book', css: CSS, body, ctx, script });
}

function petsPage(st: VetState, ctx: AppContext): AppResponse {
  const rows = st.pets
    .map(
      (p) =>
        `<a class="pet" href="${ctx.base}/p/${p.id}">${avatar(p)}<div class="info"><div class="n">${esc(p.name)}</div><div class="s">${esc(petLine(p))}</div><div class="s">${esc(petFacts(p))}</div></div><span class="go">&rsaquo;</span></a>`,
    )
    .join('');
  const body = `${appbar('My pets')}
<a class="outline" href="${ctx.base}/pets/new">+ Add a pet</a>${rows}
<div class="spacer"></div>${bottomNav(ctx, 'pets')}${menu(ctx)}`;
  return renderPage({ title: 'My pets', css: CSS, body, ctx, root: true });
}

function medStatus(st: VetState, m: Medication): { text: string; cls: string } {
  const mine = st.refills.find((r) => r.medId === m.id);
  if (mine) return { text: `Refill requested · ${mine.supply}, ${mine.fulfillment}`, cls: 'wait' };
  if (m.pendingSeeded) return { text: 'Refill requested Fri, Oct 3 · waiting for the vet', cls: 'wait' };
  if (m.expired) return { text: 'Prescription expired', cls: 'warn' };
  if (m.refillsLeft <= 0) return { text: 'No refills left', cls: 'warn' };
  return { text: `${m.refillsLeft} refill${m.refillsLeft === 1 ? '' : 's'} left · last filled ${shortDay(m.lastFilled)}`, cls: '' };
}
const medRow = (st: VetState, ctx: AppContext, m: Medication): string => {
  const s = medStatus(st, m);
  return `<a class="rx" href="${ctx.base}/m/${m.id}"><div class="info"><div class="n">${esc(m.name)}</div><div class="s">${esc(m.directions)}</div><div class="s ${s.cls}">${esc(s.text)}</div></div><span class="go">&rsaquo;</span></a>`;
};

function petPage(st: VetState, ctx: AppContext, p: Pet, t: string): AppResponse {
  const vax = VACCINES[p.name] ?? [];
  const meds = st.meds.filter((m) => m.petId === p.id);
  const past = PAST_VISITS.filter(([n]) => n === p.name);
  const next = upcoming(st).filter((a) => a.petId === p.id);
  const body = `${appbar(p.name, { back: true })}
${t === 'added' ? `<div class="card ok"><h2>Pet added</h2><div class="d">${esc(p.name)} is on your account now. Book a first visit whenever you're ready.</div></div>` : ''}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${avatar(p, 60)}<div><h2 style="margin:0">${esc(p.name)}</h2><div class="d">${esc(petLine(p))}</div><div class="d">${esc(petFacts(p))}</div></div></div></div>
<a class="primary" href="${ctx.base}/book?pet=${p.id}">Book a visit for ${esc(p.name)}</a>
${next.length ? `<div class="section">Upcoming visits</div>${next.map((a) => apRow(st, ctx, a)).join('')}` : ''}
<div class="section">Vaccines</div>${
    vax.length ? vax.map(([v, when, s]) => `<div class="vx"><span>${esc(v)}</span><span class="due s-${s}">${esc(when)}</span></div>`).join('') : '<div class="intro">No vaccine records yet. Bring any old records to the first visit.</div>'
  }
<div class="section">Medications</div>${meds.length ? meds.map((m) => medRow(st, ctx, m)).join('') : '<div class="intro">No prescriptions on file.</div>'}
${past.length ? `<div class="section">Visit history</div>${past.map(([, type, day, vet, summary]) => `<div class="kv"><span class="k">${esc(shortDay(day))}</span><span class="v">${esc(type)}, ${esc(vet)}<br><span class="muted">${esc(summary)}</span></span></div>`).join('')}` : ''}
<div class="spacer"></div>${bottomNav(ctx, 'pets')}${menu(ctx)}${t === 'added' ? toast(`${p.name} added`) : ''}`;
  return renderPage({ title: p.name, css: CSS, body, ctx });
}

function rxPage(st: VetState, ctx: AppContext): AppResponse {
  const groups = st.pets
    .map((p) => ({ p, meds: st.meds.filter((m) => m.petId === p.id) }))
    .filter((g) => g.meds.length)
    .map((g) => `<div class="section">${esc(g.p.name)} (${esc(g.p.species)})</div>${g.meds.map((m) => medRow(st, ctx, m)).join('')}`)
    .join('');
  const body = `${appbar('Prescriptions', { back: true })}
<div class="intro">Prescriptions for your pets. Tap one to ask for a refill; the vet reviews every request.</div>${groups}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Prescriptions', css: CSS, body, ctx });
}

function medPage(st: VetState, ctx: AppContext, m: Medication, t: string): AppResponse {
  const p = petOf(st, m.petId);
  const mine = st.refills.find((r) => r.medId === m.id);
  const vetShort = m.prescriber.replace(/^Dr\. \w+ /, 'Dr. ');
  let action: string;
  if (mine)
    action = `<div class="kv"><span class="k">Refill</span><span class="v">Requested · ${esc(mine.supply)}<br>${esc(mine.fulfillment)} · ${money(mine.cents)}</span></div>`;
  else if (m.pendingSeeded) action = `<div class="card note"><div class="d" style="margin:0">A refill was requested on Fri, Oct 3 and is waiting for ${esc(vetShort)}. We'll text you when it's ready.</div></div>`;
  else if (m.expired) action = `<div class="card note"><div class="d" style="margin:0">This prescription expired on Tue, Sep 30. Book a visit so ${esc(vetShort)} can renew it.</div></div>`;
  else if (m.refillsLeft <= 0) action = `<div class="card note"><div class="d" style="margin:0">No refills left. Book a visit or call us to ask ${esc(vetShort)} for a new prescription.</div></div>`;
  else action = `<a class="primary" href="${ctx.base}/m/${m.id}/refill">Request a refill</a>`;
  const body = `${appbar('Prescription', { back: true })}
${t === 'sent' && mine ? `<div class="card ok"><h2>Refill request sent</h2><div class="d">${esc(vetShort)} usually reviews requests within one business day. We'll text you when it's ${mine.fulfillment === 'Home delivery' ? 'on its way' : 'ready at the front desk'}.</div></div>` : ''}
<div class="card"><h2>${esc(m.name)}</h2><div class="d">For ${esc(p?.name ?? 'your pet')} (${esc(p?.species ?? '')})</div><div class="d">${esc(m.directions)}</div></div>
<div class="kv"><span class="k">Prescribed by</span><span class="v">${esc(m.prescriber)}</span></div>
<div class="kv"><span class="k">Last filled</span><span class="v">${esc(shortDay(m.lastFilled))}</span></div>
<div class="kv"><span class="k">Refills left</span><span class="v">${m.expired ? 'Expired' : m.refillsLeft}</span></div>
<div class="kv"><span class="k">30-day supply</span><span class="v">${money(m.cents30)}</span></div>
${action}
<div class="spacer"></div>${bottomNav(ctx, 'pets')}${menu(ctx)}${t === 'sent' && mine ? toast('Refill requested') : ''}`;
  return renderPage({ title: 'Prescription', css: CSS, body, ctx });
}

function refillPage(st: VetState, ctx: AppContext, m: Medication): AppResponse {
  const p = petOf(st, m.petId);
  const radio = (group: string, v: string, title: string, sub: string, price: string): string =>
    `<button class="opt" role="radio" aria-checked="false" data-g="${group}" data-v="${esc(v)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div>${
      price ? `<span class="p">${esc(price)}</span>` : ''
    }</button>`;
  const supplies = SUPPLIES.map(([n, months]) => radio('supply', n, n, months === 1 ? 'One month' : `${months} months · save ${months === 3 ? '10' : '5'}%`, money(supplyCents(m, n)))).join('');
  const hows = FULFILLMENTS.map(([n, sub]) => radio('how', n, n, n === 'Home delivery' ? `${sub} · to ${HOME_ADDRESS}` : sub, '')).join('');
  const prices = Object.fromEntries(SUPPLIES.map(([n]) => [n, supplyCents(m, n)]));
  const body = `${appbar('Request a refill', { back: true, menu: false })}
<div class="card"><h2>${esc(m.name)}</h2><div class="d">For ${esc(p?.name ?? 'your pet')} · ${m.refillsLeft} refill${m.refillsLeft === 1 ? '' : 's'} left</div></div>
<div class="section">How much?</div><div id="g-supply" role="radiogroup">${supplies}</div><div class="error" id="e-supply"></div>
<div class="section">How do you want to get it?</div><div id="g-how" role="radiogroup">${hows}</div><div class="error" id="e-how"></div>
<div class="field" id="f-note"><label for="note">Note for the vet (optional)</label><input id="note" type="text" autocomplete="off" maxlength="120"></div>
<button class="primary" onclick="ask()">Send request</button><div class="spacer"></div>
${confirmDialog('confirm', 'Send refill request?', '', 'Send', 'send()')}`;
  const script = `const V={supply:'',how:''};const PRICES=${JSON.stringify(prices)};const SHIP=${SHIPPING_CENTS};const NAME=${JSON.stringify(`${p?.name ?? 'your pet'}'s ${m.name}`)};
const money=c=>'$'+(c/100).toFixed(2);
function pick(el){const g=el.dataset.g;V[g]=el.dataset.v;document.getElementById('e-'+g).textContent='';for(const o of document.querySelectorAll('#g-'+g+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function ask(){let bad=false;if(!V.supply){document.getElementById('e-supply').textContent='Choose how much you need';bad=true}if(!V.how){document.getElementById('e-how').textContent='Choose pickup or delivery';bad=true}if(bad)return;
 const total=PRICES[V.supply]+(V.how==='Home delivery'?SHIP:0);
 document.getElementById('confirm-text').textContent='We will ask the vet to refill '+NAME+': '+V.supply.toLowerCase()+', '+(V.how==='Home delivery'?'delivered to your home':'picked up at the clinic')+'. Total '+money(total)+', charged to ${CARD} once it is approved.';show('confirm')}
let busy=false;function send(){if(busy)return;busy=true;api('refill',{id:${m.id},supply:V.supply,fulfillment:V.how,note:document.getElementById('note').value}).then(r=>{busy=false;hide('confirm');if(r.ok){location.replace(BASE+'/m/${m.id}?toast=sent');return}
 document.getElementById('e-how').textContent=r.error||'Could not send the request'})}`;
  return renderPage({ title: 'Request a refill', css: CSS, body, ctx, script });
}

function addPetPage(ctx: AppContext): AppResponse {
  const body = `${appbar('Add a pet', { back: true, menu: false })}
<div class="intro">Add a pet to book visits and keep their records in one place.</div>
<div class="field" id="f-name"><label for="name">Pet's name</label><input id="name" type="text" autocomplete="off" maxlength="${NAME_MAX + 10}"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-species"><label>Species</label><button class="pick unset" onclick="show('species')"><span id="species-v">Choose a species</span><span>&#9662;</span></button><div class="ferr" id="e-species"></div></div>
<div class="field" id="f-breed"><label for="breed">Breed</label><input id="breed" type="text" autocomplete="off" placeholder="e.g. Beagle, or Mixed breed"><div class="ferr" id="e-breed"></div></div>
<div class="field" id="f-sex"><label>Sex (optional)</label><div class="seg"><button data-v="Male" onclick="sex(this)">Male</button><button data-v="Female" onclick="sex(this)">Female</button></div></div>
<div class="field" id="f-weight"><label for="weight">Weight</label><div class="unit"><input id="weight" type="text" inputmode="decimal" autocomplete="off" placeholder="e.g. 12.5"><span>lb</span></div><div class="hint">From the last weigh-in or your bathroom scale.</div><div class="ferr" id="e-weight"></div></div>
<button class="primary" onclick="save()">Save pet</button><div class="spacer"></div>
${pickerDialog('species', 'Species', SPECIES, '', 'pickSpecies')}`;
  const script = `const V={species:'',sex:''};
function pickSpecies(v){V.species=v;const s=document.getElementById('species-v');s.textContent=v;s.parentElement.classList.remove('unset');document.getElementById('e-species').textContent='';document.getElementById('f-species').classList.remove('bad');
 for(const o of document.querySelectorAll('#species .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('species')}
function sex(el){V.sex=V.sex===el.dataset.v?'':el.dataset.v;for(const b of document.querySelectorAll('#f-sex button'))b.classList.toggle('on',b.dataset.v===V.sex)}
let busy=false;function save(){if(busy)return;for(const k of ['name','species','breed','weight']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 const v=k=>document.getElementById(k).value;busy=true;api('pet',{name:v('name'),species:V.species,breed:v('breed'),sex:V.sex,weight:v('weight')}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/p/'+r.id+'?toast=added');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Add a pet', css: CSS, body, ctx, script });
}

function accountPage(st: VetState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const initials = OWNER.split(' ').map((w) => w[0] ?? '').join('');
  const body = `${appbar('Account')}
<div class="row"><div class="av" style="background:${ACCENT}">${esc(initials)}</div><div class="info"><div class="t">${esc(OWNER)}</div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="section">PawPoint Rewards</div>${row(`${st.rewardPoints} points`, '500 points = $10 off a visit')}
<div class="section">Your clinic</div>${row(CLINIC, CLINIC_ADDRESS)}${row('Phone', CLINIC_PHONE)}${row('Hours', 'Mon–Fri 8 AM – 6 PM, Sat 9 AM – 1 PM, closed Sunday')}
<div class="section">Home and payment</div>${row('Home address', `${HOME_ADDRESS}, ${HOME_CITY}`)}${row('Card', CARD)}
<div class="section">Other</div>${row('Reminders', 'Text and email, the day before each visit')}${row('Pets on the account', String(st.pets.length))}${row('Help', 'FAQ, billing questions, contact us')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function handleApi(st: VetState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'draft': {
      const pet = petOf(st, Number(b.pet));
      const type = str(b.type);
      const errors: Record<string, string> = {};
      if (!pet) errors.pet = 'Choose a pet';
      if (!visitInfo(type)) errors.type = 'Choose a reason for the visit';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const keep = st.draft.petId === pet?.id && st.draft.visitType === type;
      st.draft = { petId: pet?.id ?? 0, visitType: type, notes: str(b.notes).trim().slice(0, 300), day: keep ? st.draft.day : -1, time: keep ? st.draft.time : '' };
      return json({ ok: true });
    }
    case 'slot': {
      const day = Number(b.day);
      const time = str(b.time);
      const pet = petOf(st, st.draft.petId);
      if (!draftReady(st)) return json({ ok: false, error: 'Start again from Book a visit' }, 409);
      if (!BOOK_DAYS.includes(day) || !dayFor(pet, day)) return json({ ok: false, error: 'That day is not available' }, 409);
      if (!offeredTimes(st, day, st.draft.visitType).includes(time)) return json({ ok: false, error: 'That time was just taken. Pick another one.' }, 409);
      st.draft.day = day;
      st.draft.time = time;
      return json({ ok: true });
    }
    case 'book': {
      const d = st.draft;
      const pet = petOf(st, d.petId);
      if (!pet || !visitInfo(d.visitType) || !dayFor(pet, d.day) || !offeredTimes(st, d.day, d.visitType).includes(d.time))
        return json({ ok: false, error: 'That time is no longer available. Pick another one.' }, 409);
      const id = 601 + st.appointments.filter((a) => !a.seeded).length;
      st.appointments.push({ id, petId: pet.id, visitType: d.visitType, day: d.day, time: d.time, vet: vetFor(pet, d.day, d.time), status: 'booked', seeded: false, cancelReason: '', seq: st.seq });
      st.draft = { petId: 0, visitType: '', notes: '', day: -1, time: '' };
      return json({ ok: true, id });
    }
    case 'cancel': {
      const a = st.appointments.find((x) => x.id === Number(b.id));
      const reason = str(b.reason);
      if (!a || a.status !== 'booked') return json({ ok: false, error: 'This appointment cannot be cancelled' }, 409);
      if (!CANCEL_REASONS.includes(reason)) return json({ ok: false, error: 'Choose a reason' }, 400);
      a.status = 'cancelled';
      a.cancelReason = reason;
      a.seq = st.seq;
      return json({ ok: true });
    }
    case 'refill': {
      const m = st.meds.find((x) => x.id === Number(b.id));
      const supply = str(b.supply);
      const how = str(b.fulfillment);
      if (!m || !refillable(st, m)) return json({ ok: false, error: 'This prescription cannot be refilled' }, 409);
      if (!SUPPLIES.some(([n]) => n === supply) || !FULFILLMENTS.some(([n]) => n === how)) return json({ ok: false, error: 'Choose an amount and pickup or delivery' }, 400);
      st.refills.push({ id: 701 + st.refills.length, medId: m.id, supply, fulfillment: how, note: str(b.note).trim().slice(0, 120), cents: refillCents(m, supply, how), seq: st.seq });
      m.refillsLeft -= 1;
      return json({ ok: true });
    }
    case 'pet': {
      const d = { name: str(b.name), species: str(b.species), breed: str(b.breed), weight: str(b.weight) };
      const errors = petErrors(st.pets, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 251 + st.pets.filter((p) => p.added).length;
      const sex = str(b.sex);
      st.pets.push({
        id,
        name: d.name.trim().replace(/\s+/g, ' '),
        species: d.species,
        breed: d.breed.trim().replace(/\s+/g, ' '),
        sex: sex === 'Male' || sex === 'Female' ? sex : '',
        born: '',
        weightLb: parseWeight(d.weight),
        added: true,
        seq: st.seq,
      });
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleVet(st: VetState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'visits') return arg === 'past' ? visitsPage(st, ctx, true, t) : visitsPage(st, ctx, false, t);
  if (head === 'book' && arg === undefined) return bookPage(st, ctx, Number(req.query.get('pet') ?? 0));
  if (head === 'book' && arg === 'time') return timePage(st, ctx, Number(req.query.get('day') ?? -1));
  if (head === 'book' && arg === 'review') return reviewPage(st, ctx);
  if (head === 'pets' && arg === undefined) return petsPage(st, ctx);
  if (head === 'pets' && arg === 'new') return addPetPage(ctx);
  if (head === 'rx') return rxPage(st, ctx);
  if (head === 'account') return accountPage(st, ctx);
  if (head === 'v') {
    const a = st.appointments.find((x) => x.id === Number(arg));
    return a ? visitPage(st, ctx, a, t) : notFound(CSS);
  }
  if (head === 'p') {
    const p = petOf(st, Number(arg));
    return p ? petPage(st, ctx, p, t) : notFound(CSS);
  }
  if (head === 'm') {
    const m = st.meds.find((x) => x.id === Number(arg));
    if (!m) return notFound(CSS);
    if (sub === 'refill') return refillable(st, m) ? refillPage(st, ctx, m) : { status: 303, redirect: `${ctx.base}/m/${m.id}` };
    return medPage(st, ctx, m, t);
  }
  return notFound(CSS);
}
