import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  ACCOUNT_NO,
  ADDRESS,
  cardLabel,
  cardOf,
  cleanText,
  currentValue,
  CUSTOMER,
  CUSTOMER_EMAIL,
  DD_DAYS,
  DD_MAX,
  DD_MIN,
  DD_NOTICE,
  dayLabel,
  HELP_PHONE,
  INSTALL_DAYS,
  lastOf,
  meterOf,
  money,
  nextDdOffset,
  NOTES_MAX,
  openWindows,
  ordinal,
  pad,
  parseMoney,
  PAY_MAX,
  PAY_MIN,
  prefOf,
  readingDue,
  readingError,
  readingHigh,
  shortDay,
  TARIFF,
  WINDOWS,
  windowOpen,
  windowsOf,
  type Bill,
  type Meter,
  type Payment,
  type UtilityState,
} from './state.js';

const ACCENT = '#0f766e';
const SOFT = '#ccfbf1';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f6f5}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #dce4e2}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5a6664}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:120px}
.addr{padding:10px 16px;background:#fff;border-bottom:1px solid #e2e8e6;font-size:15px;color:#5a6664}
.hello{padding:16px 16px 4px}
.hello h2{margin:0;font-size:24px}
.hello .d{font-size:15px;color:#5a6664;margin-top:2px}
.card{display:block;margin:12px;padding:16px 18px;background:#fff;border-radius:14px;border:1px solid #dde5e3}
.card h2{margin:0 0 6px;font-size:20px}
.card .d{font-size:16px;color:#3c4846}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.warn{border-color:#ffd8a8;background:#fff4e6}
.card.tint{background:${SOFT};border-color:#99e9d9}
.bal .lbl{font-size:15px;font-weight:bold;color:#5a6664}
.bal .amt{font-size:36px;font-weight:bold;margin:4px 0 2px}
.bal .d{font-size:15px}
.btns{display:flex;gap:10px;margin-top:14px}
.pill{flex:1;height:46px;border-radius:23px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;display:flex;align-items:center;justify-content:center;background:#fff;text-align:center}
.pill.solid{background:${ACCENT};color:#fff}
.mrow,.xrow{display:flex;gap:14px;align-items:center;min-height:70px;padding:10px 16px;background:#fff;border-bottom:1px solid #e2e8e6;width:100%;text-align:left}
.mrow .info,.xrow .info{flex:1;min-width:0}
.mrow .n,.xrow .n{font-size:18px;font-weight:bold}
.mrow .s,.xrow .s{font-size:15px;color:#5a6664;margin-top:3px}
.xrow .amt{flex:none;font-size:17px;font-weight:bold}
.xrow.new{background:#e6fcf5}
.fuel{flex:none;width:44px;height:44px;border-radius:22px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.badge{flex:none;font-size:14px;font-weight:bold;padding:5px 10px;border-radius:14px;background:#fff3bf;color:#8a5a00}
.badge.ok{background:#d3f9d8;color:#2b8a3e}
.go{font-size:24px;color:#9aa6a3}
.mcard{margin:12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #dde5e3}
.mcard .top{display:flex;gap:14px;align-items:center}
.mcard .info{flex:1;min-width:0}
.mcard .n{font-size:19px;font-weight:bold}
.mcard .s{font-size:14px;color:#5a6664;margin-top:2px}
.mcard .last{display:flex;justify-content:space-between;margin-top:12px;padding:10px 12px;border-radius:10px;background:#f3f6f5;font-size:16px}
.mcard .last b{font-family:'DejaVu Sans Mono','Liberation Mono',monospace;font-size:18px;letter-spacing:1px}
.mcard .btns{margin-top:12px}
.tip{margin:12px;padding:14px 16px;border-radius:14px;background:#fff;border:1px dashed #9bb3ae}
.tip h3{margin:0 0 6px;font-size:17px}
.tip p{margin:4px 0;font-size:15px;color:#3c4846}
.dials{display:flex;gap:4px;margin:8px 0}
.dials span{width:30px;height:40px;border-radius:4px;background:#1f2a28;color:#fff;font-family:'DejaVu Sans Mono','Liberation Mono',monospace;font-size:22px;display:flex;align-items:center;justify-content:center}
.dials span.red{background:#c92a2a}
.hero{display:flex;gap:16px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e2e8e6}
.hero h2{margin:0 0 4px;font-size:22px}
.hero .s{font-size:15px;color:#5a6664}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e2e8e6;font-size:17px}
.kv .k{color:#5a6664;flex:none}
.kv .v{font-weight:bold;text-align:right}
.mono{font-family:'DejaVu Sans Mono','Liberation Mono',monospace;letter-spacing:1px}
.field .unit{display:flex;align-items:center;gap:10px}
.field .unit span{font-size:18px;font-weight:bold;color:#5a6664}
.field .hint{font-size:15px;color:#5a6664;margin-top:6px}
.field textarea{height:100px}
.field.bad input,.field.bad textarea,.field.bad .pick{border-color:#c92a2a}
.field.bad .ropts{outline:2px solid #c92a2a;outline-offset:4px;border-radius:8px}
.ferr:empty{display:none}
.intro{padding:12px 16px 4px;font-size:16px;color:#3c4846}
.para{padding:8px 16px;font-size:16px;line-height:1.45;background:#fff}
.ropt{display:flex;gap:14px;align-items:center;width:100%;min-height:60px;padding:10px 12px;margin-top:8px;border:2px solid #d0d8d6;border-radius:12px;background:#fff;text-align:left}
.ropt .rad{flex:none;width:24px;height:24px;border-radius:12px;border:2px solid #868e96}
.ropt .info{flex:1}
.ropt .n{font-size:18px;font-weight:bold}
.ropt .s{font-size:14px;color:#5a6664;margin-top:2px}
.ropt .r{flex:none;font-size:17px;font-weight:bold}
.ropt[aria-checked="true"]{border-color:${ACCENT};background:#effcf8}
.ropt[aria-checked="true"] .rad{border:7px solid ${ACCENT}}
.ropt[aria-disabled="true"]{opacity:.5}
.ropt[aria-disabled="true"] .r{color:#c92a2a}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;min-height:52px;border:2px solid #d0d4da;border-radius:10px;padding:6px 14px;font-size:17px;background:#fff;text-align:left}
.pick .s{display:block;font-size:14px;color:#5a6664}
.money{display:flex;align-items:center;border:2px solid #d0d4da;border-radius:10px;background:#fff;margin-top:10px}
.money span{padding:0 6px 0 14px;font-size:19px;font-weight:bold}
.money input{border:none!important;height:50px;font-size:19px;padding:0 10px 0 2px;flex:1;outline:none;min-width:0}
.field.bad .money{border-color:#c92a2a}
.srow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #e2e8e6;width:100%;text-align:left}
.srow .info{flex:1;min-width:0}
.srow .t{font-size:17px}
.srow .s{font-size:15px;color:#5a6664;margin-top:3px}
.srow .val{flex:none;font-size:17px;font-weight:bold;color:${ACCENT};text-align:right}
.srow .val small{display:block;font-size:13px;color:#e8590c}
.me{flex:none;width:56px;height:56px;border-radius:28px;background:${ACCENT};color:#fff;font-size:21px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.dialog .big{font-family:'DejaVu Sans Mono','Liberation Mono',monospace;font-size:30px;font-weight:bold;letter-spacing:2px;text-align:center;margin:6px 0 12px}
.dialog .warnp{color:#c2410c;font-weight:bold}
.dialog .acts button.destroy{color:#c92a2a}
.dialog.tall .list{max-height:52vh;overflow-y:auto}
.dialog .opt{border-bottom:1px solid #f1f3f5}
.dialog .opt .sub{font-size:14px;color:#5a6664;margin-left:auto}
.dialog .opt.exp{color:#868e96}
.dialog .opt.exp .sub{color:#c92a2a}
.drow{display:flex;gap:14px;align-items:center;min-height:64px;padding:8px 16px;background:#fff;border-bottom:1px solid #e2e8e6}
.drow .info{flex:1}
.drow .n{font-size:17px;font-weight:bold}
.drow .s{font-size:14px;color:#5a6664;margin-top:2px}
.drow.full .n,.drow.full .s{color:#9aa6a3}
.date{flex:none;width:50px;height:50px;border-radius:10px;background:${SOFT};color:${ACCENT};display:flex;flex-direction:column;align-items:center;justify-content:center;font-weight:bold;font-size:13px;line-height:16px}
.date b{font-size:19px;line-height:21px}
.drow.full .date{background:#eef1f0;color:#9aa6a3}
.bars{display:flex;align-items:flex-end;gap:10px;height:180px;padding:16px 16px 0;background:#fff}
.bars div{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:flex-end;height:100%;font-size:13px;color:#5a6664}
.bars i{display:block;width:100%;background:${ACCENT};border-radius:6px 6px 0 0}
.bars .m{padding:6px 0 10px}
.seg{display:flex;gap:8px;padding:12px 12px 4px}
.seg a{flex:1;height:44px;border-radius:22px;border:2px solid #d0d8d6;display:flex;align-items:center;justify-content:center;font-size:16px;font-weight:bold;background:#fff;color:#3c4846}
.seg a.on{border-color:${ACCENT};background:${SOFT};color:${ACCENT}}
.promo{margin:12px;padding:16px 18px;border-radius:14px;background:#134e4a;color:#fff}
.promo h2{margin:0 0 4px;font-size:20px}
.promo p{margin:0 0 12px;font-size:15px;opacity:.9}
.promo a{display:inline-block;height:44px;line-height:44px;padding:0 20px;border-radius:22px;background:#fff;color:#134e4a;font-weight:bold;font-size:16px}
.secondary{display:block;margin:12px;height:50px;border-radius:25px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:46px;background:#fff}
.secondary.danger{border-color:#c92a2a;color:#c92a2a}
.snack{position:fixed;left:16px;right:16px;bottom:96px;z-index:80;background:#25282c;color:#fff;border-radius:10px;padding:15px 18px;font-size:17px;box-shadow:0 4px 14px rgba(0,0,0,.35)}
.ver{padding:16px;text-align:center;font-size:14px;color:#868e96}
`;

type Tab = 'home' | 'readings' | 'billing' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar<Tab>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'readings', label: 'Readings', glyph: '&#9719;', href: `${ctx.base}/readings` },
      { id: 'billing', label: 'Billing', glyph: '&#163;', href: `${ctx.base}/billing` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );
const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Submit a reading', `${ctx.base}/readings`],
    ['Make a payment', `${ctx.base}/pay`],
    ['Your usage', `${ctx.base}/usage`],
    ['Help', `${ctx.base}/account`],
  ]);
const snackJs = `function snack(t){let el=document.getElementById('snack');if(!el){el=document.createElement('div');el.id='snack';el.className='snack';el.setAttribute('role','status');document.body.appendChild(el)}el.textContent=t;el.hidden=false;clearTimeout(window.__sn);window.__sn=setTimeout(()=>{el.hidden=true},2500)}`;

const FUEL_COLORS: Readonly<Record<string, string>> = { elec: '#f08c00', gas: '#1c7ed6', water: '#0c8599' };
const FUEL_GLYPH: Readonly<Record<string, string>> = { elec: 'E', gas: 'G', water: 'W' };
const fuelIcon = (m: Meter): string => `<div class="fuel" aria-hidden="true" style="background:${FUEL_COLORS[m.id] ?? '#868e96'}">${FUEL_GLYPH[m.id] ?? ''}</div>`;
const dateBadge = (day: number): string => `<div class="date" aria-hidden="true">${esc(shortDay(day).slice(0, 3))}<b>${shortDay(day).split(' ').pop()}</b></div>`;
const billTotal = (b: Bill): number => b.elec + b.gas + b.water;
const balanceLine = (st: UtilityState): string => (st.balance > 0 ? 'Balance due' : st.balance < 0 ? 'In credit' : 'Nothing to pay');
const ddLine = (st: UtilityState): string => `${money(st.dd.pence)} on the ${ordinal(st.dd.day)} of each month`;
const windowText = (w: string): string => `${w} (${WINDOWS.find(([n]) => n === w)?.[1] ?? ''})`;
const lastReadText = (st: UtilityState, m: Meter): string => {
  const mine = st.readings.filter((r) => r.meterId === m.id);
  return mine.length ? `${pad(m, mine[mine.length - 1]!.value)} ${m.unit} · Today` : `${pad(m, lastOf(m).value)} ${m.unit} · ${shortDay(lastOf(m).day)}`;
};
const dueBadge = (st: UtilityState, m: Meter): string =>
  st.readings.some((r) => r.meterId === m.id) ? '<span class="badge ok">Sent today</span>' : readingDue(m) ? '<span class="badge">Reading due</span>' : '<span class="badge ok">Up to date</span>';

function homePage(st: UtilityState, ctx: AppContext): AppResponse {
  const may = st.bills[0]!;
  const appt = st.appointment && !st.appointment.cancelled ? st.appointment : undefined;
  const body = `${appbar('Norvale')}
<div class="addr">${esc(ADDRESS.split(',')[0] ?? '')} · Account ${esc(ACCOUNT_NO)}</div>
<div class="hello"><h2>Hi ${esc(CUSTOMER.split(' ')[0] ?? '')}</h2><div class="d">${esc(dayLabel(0))}</div></div>
<div class="card bal"><div class="lbl">${balanceLine(st)}</div><div class="amt" id="home-balance">${money(st.balance)}</div>
<div class="d">Your ${esc(may.month)} bill was ${money(billTotal(may))} · Due by ${esc(dayLabel(11))}</div>
<div class="btns"><a class="pill solid" id="pay-now" href="${ctx.base}/pay">Pay now</a><a class="pill" id="view-bills" href="${ctx.base}/billing">View bills</a></div></div>
<div class="section">Your meters</div>
${st.meters
  .map(
    (m) =>
      `<a class="mrow" href="${ctx.base}/readings/${m.id}" data-meter="${esc(m.name)}">${fuelIcon(m)}<div class="info"><div class="n">${esc(m.name)}</div><div class="s">Last reading ${esc(lastReadText(st, m))}</div></div>${dueBadge(st, m)}<span class="go">&rsaquo;</span></a>`,
  )
  .join('')}
${
  appt
    ? `<div class="card tint"><h2>Smart meter installation</h2><div class="d">${esc(dayLabel(appt.day))}, ${esc(windowText(appt.window))}</div><div class="btns"><a class="pill" href="${ctx.base}/smart-meter">View booking</a></div></div>`
    : `<div class="promo"><h2>Get a smart meter, free</h2><p>No more meter readings, and bills based on what you really use.</p><a id="promo-book" href="${ctx.base}/smart-meter">Find out more</a></div>`
}
<div class="section">Your tariff</div>
<div class="kv"><span class="k">Plan</span><span class="v">${esc(TARIFF)}</span></div>
<div class="kv"><span class="k">Electricity</span><span class="v">24.86p per kWh</span></div>
<div class="kv"><span class="k">Gas</span><span class="v">6.29p per kWh</span></div>
<div class="kv"><span class="k">Water</span><span class="v">£2.14 per m³</span></div>
<a class="srow" id="usage-row" href="${ctx.base}/usage"><div class="info"><div class="t">See your usage</div><div class="s">Month by month, for each meter</div></div><span class="go">&rsaquo;</span></a>
<div class="section">Help</div>
<div class="srow"><div class="info"><div class="t">Smell gas?</div><div class="s">Call the gas emergency line on 0800 111 999, day or night</div></div></div>
<div class="srow"><div class="info"><div class="t">Moving home</div><div class="s">Tell us at least 2 days before you move</div></div></div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Norvale', css: CSS, body, ctx, root: true });
}

function readingsPage(st: UtilityState, ctx: AppContext, t: string, sentId: string): AppResponse {
  const sent = t === 'sent' ? meterOf(st, sentId) : undefined;
  const banner = sent
    ? `<div class="card ok"><h2>Reading received</h2><div class="d">${esc(sent.name)}: ${esc(pad(sent, currentValue(st, sent)))} ${esc(sent.unit)} on ${esc(dayLabel(0))}. Your next bill will use it.</div></div>`
    : '';
  const body = `${appbar('Meter readings')}${banner}
<div class="tip"><h3>How to read your meter</h3><p>Read the numbers from left to right, including any zeros at the start.</p>
<div class="dials" aria-hidden="true"><span>0</span><span>4</span><span>8</span><span>1</span><span>2</span><span class="red">7</span></div>
<p>Leave out numbers in red or after a decimal point.</p></div>
<div class="section">Your meters</div>
${st.meters
  .map(
    (m) => `<div class="mcard" data-meter="${esc(m.name)}"><div class="top">${fuelIcon(m)}<div class="info"><div class="n">${esc(m.name)}</div><div class="s">Meter ${esc(m.serial)}</div></div>${dueBadge(st, m)}</div>
<div class="last"><span>Last reading</span><span><b>${esc(pad(m, currentValue(st, m)))}</b> ${esc(m.unit)}</span></div>
<div class="btns"><a class="pill solid" id="enter-${m.id}" href="${ctx.base}/readings/${m.id}">Enter reading</a><a class="pill" id="history-${m.id}" href="${ctx.base}/readings/${m.id}/history">History</a></div></div>`,
  )
  .join('')}
<div class="intro">Readings sent before 8 PM are used for your next bill.</div>
<div class="spacer"></div>${bottomNav(ctx, 'readings')}${menu(ctx)}
${sent ? toast('Reading sent') : ''}`;
  return renderPage({ title: 'Meter readings', css: CSS, body, ctx, root: true });
}

function historyPage(st: UtilityState, ctx: AppContext, m: Meter): AppResponse {
  const rows = [
    ...st.readings.filter((r) => r.meterId === m.id).map((r) => ({ day: 0, value: r.value, source: 'Your reading' })),
    ...m.history.map((h) => ({ day: h.day, value: h.value, source: h.source })),
  ].sort((a, b) => b.day - a.day);
  const body = `${appbar(`${m.name} history`, { back: true })}
<div class="hero">${fuelIcon(m)}<div><h2>${esc(m.name)} meter</h2><div class="s">Meter ${esc(m.serial)} · ${esc(m.unit)}</div></div></div>
<div class="section">Readings</div>
${rows.map((r) => `<div class="xrow">${dateBadge(r.day)}<div class="info"><div class="n mono">${esc(pad(m, r.value))}</div><div class="s">${esc(r.source)} · ${esc(dayLabel(r.day))}</div></div></div>`).join('')}
<a class="primary" href="${ctx.base}/readings/${m.id}">Enter a new reading</a>
<div class="spacer"></div>${bottomNav(ctx, 'readings')}${menu(ctx)}`;
  return renderPage({ title: `${m.name} history`, css: CSS, body, ctx });
}

function readingForm(st: UtilityState, ctx: AppContext, m: Meter): AppResponse {
  const last = lastOf(m);
  const mine = st.readings.filter((r) => r.meterId === m.id);
  const lastText = mine.length ? `${dayLabel(0)} (Your reading)` : `${dayLabel(last.day)} (${last.source})`;
  const body = `${appbar(`${m.name} reading`, { back: true, menu: false })}
<div class="hero">${fuelIcon(m)}<div><h2>${esc(m.name)} meter</h2><div class="s">Meter ${esc(m.serial)}</div></div></div>
<div class="kv"><span class="k">Last reading</span><span class="v"><span class="mono" id="last-v">${esc(pad(m, currentValue(st, m)))}</span> ${esc(m.unit)}</span></div>
<div class="kv"><span class="k">Read on</span><span class="v">${esc(lastText)}</span></div>
<div class="field" id="f-value"><label for="value">New reading</label><div class="unit"><input id="value" inputmode="numeric" autocomplete="off" placeholder="${'0'.repeat(m.digits)}"><span>${esc(m.unit)}</span></div>
<div class="hint">Enter the ${m.digits} numbers on the display, including zeros at the start.</div><div class="ferr" id="e-value"></div></div>
<div class="kv"><span class="k">Date of reading</span><span class="v">Today, ${esc(dayLabel(0).split(', ')[1] ?? '')}</span></div>
<div class="error" id="err"></div>
<button class="primary" id="submit" onclick="go()">Submit reading</button>
<div class="spacer"></div>
<div id="checkdlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Check your reading"><h2>Check your reading</h2>
<p>${esc(m.name)} meter ${esc(m.serial)}</p><div class="big" id="check-v"></div><p id="check-use"></p><p class="warnp" id="check-warn" hidden>This is much higher than usual. Make sure it's the right meter and leave out any red numbers.</p>
<div class="acts"><button id="check-edit" onclick="hide('checkdlg')">Edit</button><button id="check-ok" onclick="send()">Submit</button></div></div></div>`;
  const script = `const M=${JSON.stringify({ id: m.id, unit: m.unit })};let busy=false;
function clr(){document.getElementById('e-value').textContent='';document.getElementById('f-value').classList.remove('bad');document.getElementById('err').textContent=''}
document.getElementById('value').addEventListener('input',clr);
function go(){if(busy)return;clr();busy=true;api('reading',{meter:M.id,value:document.getElementById('value').value,check:true}).then(x=>{busy=false;
 if(!x.ok){document.getElementById('e-value').textContent=x.error||'Could not check this reading';document.getElementById('f-value').classList.add('bad');return}
 document.getElementById('check-v').textContent=x.padded+' '+M.unit;document.getElementById('check-use').textContent=x.use;document.getElementById('check-warn').hidden=!x.high;show('checkdlg')})}
function send(){if(busy)return;busy=true;api('reading',{meter:M.id,value:document.getElementById('value').value}).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/readings?t=sent&m='+M.id);return}hide('checkdlg');document.getElementById('e-value').textContent=x.error||'Could not send';document.getElementById('f-value').classList.add('bad')})}`;
  return renderPage({ title: `${m.name} reading`, css: CSS, body, ctx, script });
}

const paymentTitle = (st: UtilityState, p: Payment): string => {
  const c = cardOf(st, p.cardId);
  return c ? `Card payment · ${cardLabel(c)}` : 'Direct Debit';
};

function billingPage(st: UtilityState, ctx: AppContext): AppResponse {
  const pays = [...st.payments].sort((a, b) => b.day - a.day || b.id - a.id);
  const body = `${appbar('Billing')}
<div class="card bal"><div class="lbl">${balanceLine(st)}</div><div class="amt" id="bill-balance">${money(st.balance)}</div><div class="d">Due by ${esc(dayLabel(11))}</div>
<div class="btns"><a class="pill solid" id="make-payment" href="${ctx.base}/pay">Make a payment</a></div></div>
<div class="section">Direct Debit</div>
<a class="srow" id="dd-row" href="${ctx.base}/direct-debit"><div class="info"><div class="t">Direct Debit</div><div class="s">${esc(ddLine(st))}</div></div><span class="go">&rsaquo;</span></a>
<div class="section">Bills</div>
${st.bills
  .map(
    (b) =>
      `<div class="xrow" data-bill="${esc(b.month)}"><div class="info"><div class="n">${esc(b.month)} bill</div><div class="s">Issued ${esc(shortDay(b.day))} · Electricity ${money(b.elec)}, gas ${money(b.gas)}, water ${money(b.water)}</div></div><span class="amt">${money(billTotal(b))}</span></div>`,
  )
  .join('')}
<div class="section">Payment history</div>
${pays
  .map((p) => `<div class="xrow${p.seeded ? '' : ' new'}"><div class="info"><div class="n">${esc(paymentTitle(st, p))}</div><div class="s">${esc(shortDay(p.day))} · Ref ${esc(p.ref)}</div></div><span class="amt">${money(p.pence)}</span></div>`)
  .join('')}
<div class="spacer"></div>${bottomNav(ctx, 'billing')}${menu(ctx)}`;
  return renderPage({ title: 'Billing', css: CSS, body, ctx, root: true });
}

function payPage(st: UtilityState, ctx: AppContext): AppResponse {
  const def = cardOf(st, st.defaultCard)!;
  const cardOpt = (c: UtilityState['cards'][number]): string =>
    `<button class="opt${c.id === def.id ? ' sel' : ''}${c.expired ? ' exp' : ''}" role="radio" aria-checked="${c.id === def.id}" data-v="${c.id}" data-label="${esc(cardLabel(c))}" onclick="pickCard(this)"><span class="rad"></span>${esc(cardLabel(c))}<span class="sub">${c.expired ? 'Expired' : 'Expires'} ${esc(c.expiry)}</span></button>`;
  const full = st.balance > 0;
  const body = `${appbar('Make a payment', { back: true, menu: false })}
<div class="kv"><span class="k">${balanceLine(st)}</span><span class="v">${money(st.balance)}</span></div>
<div class="field" id="f-amount"><label>How much would you like to pay?</label><div class="ropts" role="radiogroup">
${full ? `<button class="ropt" id="amt-full" role="radio" aria-checked="true" onclick="pickAmt('full')"><span class="rad"></span><div class="info"><div class="n">Full balance</div><div class="s">Clears what you owe today</div></div><span class="r">${money(st.balance)}</span></button>` : ''}
<button class="ropt" id="amt-other" role="radio" aria-checked="${!full}" onclick="pickAmt('other')"><span class="rad"></span><div class="info"><div class="n">Another amount</div><div class="s">Pay part of your balance, or add credit</div></div></button></div>
<div class="money" id="other-box"${full ? ' hidden' : ''}><span>£</span><input id="amount" inputmode="decimal" autocomplete="off" placeholder="0.00"></div>
<div class="ferr" id="e-amount"></div></div>
<div class="field" id="f-card"><label>Pay with</label><button class="pick" id="card-btn" onclick="show('carddlg')"><span><span id="card-v">${esc(cardLabel(def))}</span><span class="s" id="card-s">Expires ${esc(def.expiry)}</span></span><span>&#9662;</span></button>
<div class="hint">To add a new card, call us on ${esc(HELP_PHONE)}.</div><div class="ferr" id="e-card"></div></div>
<div class="error" id="err"></div>
<button class="primary" id="continue" onclick="go()">Continue</button>
<div class="spacer"></div>
<div id="carddlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('carddlg')"><div class="dialog" role="dialog" aria-label="Pay with"><h2>Pay with</h2>${st.cards.map(cardOpt).join('')}
<div class="acts"><button onclick="hide('carddlg')">Cancel</button></div></div></div>
<div id="paydlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Confirm payment"><h2>Confirm payment</h2><p id="pay-text"></p><p>Card payments can't be cancelled once they're made.</p>
<div class="acts"><button onclick="hide('paydlg')">Cancel</button><button id="pay-ok" onclick="pay()">Pay now</button></div></div></div>`;
  const script = `const V={mode:${JSON.stringify(full ? 'full' : 'other')},card:${JSON.stringify(def.id)},full:${JSON.stringify((st.balance / 100).toFixed(2))}};let busy=false;
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function pickAmt(m){V.mode=m;clr('amount');for(const [id,k] of [['amt-full','full'],['amt-other','other']]){const e=document.getElementById(id);if(e)e.setAttribute('aria-checked',String(k===m))}
 document.getElementById('other-box').hidden=m!=='other';if(m==='other')document.getElementById('amount').focus()}
function pickCard(el){V.card=el.dataset.v;clr('card');for(const o of document.querySelectorAll('#carddlg .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}
 document.getElementById('card-v').textContent=el.dataset.label;document.getElementById('card-s').textContent=el.querySelector('.sub').textContent;hide('carddlg')}
const amt=()=>V.mode==='full'?V.full:document.getElementById('amount').value;
function go(){if(busy)return;clr('amount');clr('card');document.getElementById('err').textContent='';busy=true;api('pay',{amount:amt(),card:V.card,check:true}).then(x=>{busy=false;
 if(!x.ok){let first=null;for(const [k,m] of Object.entries(x.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);f.classList.add('bad');first=first||f}
  if(x.error)document.getElementById('err').textContent=x.error;if(first)first.scrollIntoView({block:'center'});return}
 document.getElementById('pay-text').textContent='Pay '+x.amount+' now with '+x.card+'?';document.getElementById('pay-ok').textContent='Pay '+x.amount;show('paydlg')})}
function pay(){if(busy)return;busy=true;api('pay',{amount:amt(),card:V.card}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/payments/'+x.id);return}
 hide('paydlg');document.getElementById('err').textContent=x.error||'Payment failed. Try again.'})}`;
  return renderPage({ title: 'Make a payment', css: CSS, body, ctx, script });
}

function paymentDone(st: UtilityState, ctx: AppContext, p: Payment): AppResponse {
  const c = cardOf(st, p.cardId);
  const body = `${appbar('Payment', { back: false })}
<div class="card ok"><h2>Payment successful</h2><div class="d">${money(p.pence)} paid with ${esc(c ? cardLabel(c) : '')}. A receipt is on its way to ${esc(CUSTOMER_EMAIL)}.</div></div>
<div class="kv"><span class="k">Amount</span><span class="v">${money(p.pence)}</span></div>
<div class="kv"><span class="k">Card</span><span class="v">${esc(c ? cardLabel(c) : '')}</span></div>
<div class="kv"><span class="k">Reference</span><span class="v">${esc(p.ref)}</span></div>
<div class="kv"><span class="k">${balanceLine(st)}</span><span class="v">${money(st.balance)}</span></div>
<a class="primary" id="done" href="${ctx.base}/">Back to Home</a>
<div class="spacer"></div>${bottomNav(ctx, 'billing')}${menu(ctx)}${toast('Payment received')}`;
  return renderPage({ title: 'Payment successful', css: CSS, body, ctx });
}

/** "Monday, June 16" for the first Direct Debit taken on day `d` (with notice when it is a new date). */
const ddNext = (d: number, notice: number): string => dayLabel(nextDdOffset(d, notice));

function ddPage(st: UtilityState, ctx: AppContext, t: string): AppResponse {
  const dd = st.dd;
  const banner =
    t === 'changed'
      ? `<div class="card ok"><h2>Payment date changed</h2><div class="d">Your Direct Debit will be taken on the ${ordinal(dd.day)} of each month, starting ${esc(ddNext(dd.day, DD_NOTICE))}.</div></div>`
      : '';
  const texts = Object.fromEntries(
    DD_DAYS.map((d) => [d, `From now on, ${money(dd.pence)} will be taken on the ${ordinal(d)} of each month. The first payment on the new date will be on ${ddNext(d, DD_NOTICE)}.`]),
  );
  const body = `${appbar('Direct Debit', { back: true })}${banner}
<div class="card bal"><div class="lbl">Monthly payment</div><div class="amt" id="dd-amount-v">${money(dd.pence)}</div><div class="d">Next payment ${esc(ddNext(dd.day, dd.dayChanges ? DD_NOTICE : 0))}</div></div>
<div class="section">Your Direct Debit</div>
<button class="srow" id="amount-row" onclick="openAmount()"><div class="info"><div class="t">Monthly amount</div><div class="s">We suggest ${money(dd.pence + 800)} based on your use</div></div><span class="val">${money(dd.pence)}</span><span class="go">&rsaquo;</span></button>
<button class="srow" id="day-row" onclick="openDays()"><div class="info"><div class="t">Payment date</div><div class="s">Day of the month it's taken</div></div><span class="val" id="day-v">${ordinal(dd.day)} of each month</span><span class="go">&rsaquo;</span></button>
<div class="srow"><div class="info"><div class="t">Bank account</div><div class="s">${esc(dd.bank)} ····${esc(dd.accountEnding)}</div></div></div>
<div class="intro">A new payment date needs ${DD_NOTICE} days' notice. To change your bank details, call us on ${esc(HELP_PHONE)}.</div>
<div class="error" id="err"></div>
<button class="primary" id="save" onclick="save()">Save changes</button>
<div class="spacer"></div>${bottomNav(ctx, 'billing')}${menu(ctx)}
<div id="daydlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('daydlg')"><div class="dialog tall" role="dialog" aria-label="Payment date"><h2>Payment date</h2><div class="list">${DD_DAYS.map(
    (d) => `<button class="opt${d === dd.day ? ' sel' : ''}" role="radio" aria-checked="${d === dd.day}" data-v="${d}" onclick="mark(this)"><span class="rad"></span>${ordinal(d)}${d === dd.day ? '<span class="sub">Current</span>' : ''}</button>`,
  ).join('')}</div>
<div class="acts"><button onclick="hide('daydlg')">Cancel</button><button id="daydlg-ok" onclick="okDay()">OK</button></div></div></div>
<div id="ddconfirm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Change payment date?"><h2>Change payment date?</h2><p id="ddconfirm-text"></p>
<div class="acts"><button onclick="hide('ddconfirm')">Cancel</button><button id="ddconfirm-ok" onclick="confirmDay()">Confirm</button></div></div></div>
<div id="amountdlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Monthly amount"><h2>Monthly amount</h2><p>How much should we take each month?</p>
<div class="money"><span>£</span><input id="dd-amount" inputmode="decimal" autocomplete="off" value="${(dd.pence / 100).toFixed(2)}"></div><div class="error" id="amount-err"></div>
<div class="acts"><button onclick="hide('amountdlg')">Cancel</button><button id="amountdlg-ok" onclick="saveAmount()">Update</button></div></div></div>`;
  const script = `${snackJs}
const CUR=${dd.day};const TEXTS=${JSON.stringify(texts)};let pending=CUR;let busy=false;
function openDays(){for(const o of document.querySelectorAll('#daydlg .opt')){const on=Number(o.dataset.v)===pending;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}show('daydlg')}
function mark(el){for(const o of document.querySelectorAll('#daydlg .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function ord(n){const s=n%100>=11&&n%100<=13?'th':({1:'st',2:'nd',3:'rd'})[n%10]||'th';return n+s}
function okDay(){const el=document.querySelector('#daydlg .opt.sel');hide('daydlg');if(!el)return;pending=Number(el.dataset.v);document.getElementById('err').textContent='';
 document.getElementById('day-v').innerHTML=ord(pending)+' of each month'+(pending!==CUR?'<small>Not saved yet</small>':'')}
function save(){document.getElementById('err').textContent='';if(pending===CUR){document.getElementById('err').textContent='Choose a new payment date first';return}
 document.getElementById('ddconfirm-text').textContent=TEXTS[pending];show('ddconfirm')}
function confirmDay(){if(busy)return;busy=true;api('dd',{day:pending}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/direct-debit?t=changed');return}hide('ddconfirm');document.getElementById('err').textContent=x.error||'Could not save'})}
function openAmount(){document.getElementById('amount-err').textContent='';show('amountdlg')}
function saveAmount(){if(busy)return;busy=true;api('dd',{amount:document.getElementById('dd-amount').value}).then(x=>{busy=false;if(!x.ok){document.getElementById('amount-err').textContent=x.error||'Could not save';return}
 hide('amountdlg');document.getElementById('dd-amount-v').textContent=x.amount;document.querySelector('#amount-row .val').textContent=x.amount;snack('Monthly amount updated')})}`;
  return renderPage({ title: 'Direct Debit', css: CSS, body, ctx, script });
}

function accountPage(st: UtilityState, ctx: AppContext): AppResponse {
  const appt = st.appointment && !st.appointment.cancelled ? st.appointment : undefined;
  const link = (id: string, href: string, tt: string, s: string): string =>
    `<a class="srow" id="${id}" href="${href}"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div><span class="go">&rsaquo;</span></a>`;
  const row = (tt: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Account')}
<div class="srow"><div class="me" aria-hidden="true">DB</div><div class="info"><div class="t"><b>${esc(CUSTOMER)}</b></div><div class="s">${esc(CUSTOMER_EMAIL)}</div></div></div>
<div class="section">Personal details</div>
${row('Supply address', ADDRESS)}
${row('Account number', ACCOUNT_NO)}
${row('Tariff', `${TARIFF} · electricity and gas`)}
<div class="section">Services</div>
${link('smart-row', `${ctx.base}/smart-meter`, 'Smart meter installation', appt ? `Booked: ${dayLabel(appt.day)}, ${appt.window}` : 'Book a free smart meter')}
${link('acct-dd-row', `${ctx.base}/direct-debit`, 'Direct Debit', ddLine(st))}
${link('acct-readings-row', `${ctx.base}/readings`, 'Meter readings', 'Electricity, gas and water')}
${row('Priority Services Register', 'Extra help if you need it')}
<div class="section">Preferences</div>
${st.prefs
  .map(
    (p) =>
      `<button class="srow" id="p-${p.id}" data-pref="${esc(p.name)}" role="switch" aria-checked="${p.on}" onclick="tog('${p.id}',this)"><div class="info"><div class="t">${esc(p.name)}</div><div class="s">${esc(p.sub)}</div></div><span class="switch${p.on ? ' on' : ''}"></span></button>`,
  )
  .join('')}
<div class="section">Help</div>
${row('Contact us', `${HELP_PHONE} · Monday to Friday, 8 AM – 6 PM`)}
<div class="ver">Norvale 7.3.1</div>
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  const script = `${snackJs}
function tog(id,el){api('pref',{id}).then(x=>{if(!x.ok){snack(x.error||'Could not save');return}el.setAttribute('aria-checked',String(x.on));el.querySelector('.switch').classList.toggle('on',x.on);snack('Saved')})}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true, script });
}

function smartPage(st: UtilityState, ctx: AppContext, t: string): AppResponse {
  const appt = st.appointment && !st.appointment.cancelled ? st.appointment : undefined;
  const banner =
    t === 'booked' && appt
      ? `<div class="card ok"><h2>Installation booked</h2><div class="d">${esc(dayLabel(appt.day))}, ${esc(windowText(appt.window))}. We'll text you the day before with your engineer's name.</div></div>`
      : t === 'cancelled'
        ? `<div class="card warn"><h2>Installation cancelled</h2><div class="d">You can book again at any time.</div></div>`
        : '';
  const booking = appt
    ? `<div class="section">Your installation</div>
<div class="kv"><span class="k">Date</span><span class="v" id="appt-day">${esc(dayLabel(appt.day))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v" id="appt-window">${esc(windowText(appt.window))}</span></div>
${appt.notes ? `<div class="kv"><span class="k">Access notes</span><span class="v">${esc(appt.notes)}</span></div>` : ''}
<a class="secondary" id="change" href="${ctx.base}/smart-meter/dates">Change date or time</a>
<button class="secondary danger" id="cancel" onclick="show('canceldlg')">Cancel installation</button>`
    : `<a class="primary" id="check" href="${ctx.base}/smart-meter/dates">Check available dates</a>`;
  const body = `${appbar('Smart meter', { back: true })}${banner}
<div class="hero"><div class="fuel" aria-hidden="true" style="background:${ACCENT}">S</div><div><h2>Get a smart meter, free</h2><div class="s">For your electricity and gas</div></div></div>
${booking}
<div class="section">Why get a smart meter?</div>
<div class="para">No more meter readings: your meters send them to us automatically.</div>
<div class="para">Bills based on what you really use, not estimates.</div>
<div class="para">See your use by the day and hour in the Norvale app.</div>
<div class="section">What happens on the day</div>
<div class="para">An engineer replaces your electricity and gas meters. It takes about 2 hours, and the power and gas are off for around 30 minutes.</div>
<div class="para">Someone over 18 needs to be home, and the engineer needs to reach both meters.</div>
<div class="intro">Water meters aren't part of this installation.</div>
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}
<div id="canceldlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel installation?"><h2>Cancel installation?</h2><p>Your engineer visit will be cancelled.</p>
<div class="acts"><button onclick="hide('canceldlg')">Keep it</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Cancel installation</button></div></div></div>
${t === 'booked' && appt ? toast('Installation booked') : ''}`;
  const script = `function doCancel(){api('cancel_install',{}).then(x=>{if(x.ok)location.replace(BASE+'/smart-meter?t=cancelled');else hide('canceldlg')})}`;
  return renderPage({ title: 'Smart meter', css: CSS, body, ctx, script });
}

function datesPage(st: UtilityState, ctx: AppContext): AppResponse {
  const weeks = [...new Set(INSTALL_DAYS.map((d) => d - (d % 7)))];
  const row = (d: number): string => {
    const open = openWindows(d);
    const sat = d % 7 === 5;
    if (!open.length) return `<div class="drow full" data-day="${esc(dayLabel(d))}">${dateBadge(d)}<div class="info"><div class="n">${esc(dayLabel(d))}</div><div class="s">Fully booked</div></div></div>`;
    return `<a class="drow" href="${ctx.base}/smart-meter/dates/${d}" data-day="${esc(dayLabel(d))}">${dateBadge(d)}<div class="info"><div class="n">${esc(dayLabel(d))}</div><div class="s">${sat ? 'Morning only' : `${open.length} of 3 times free`}</div></div><span class="go">&rsaquo;</span></a>`;
  };
  const appt = st.appointment && !st.appointment.cancelled ? st.appointment : undefined;
  const body = `${appbar('Choose a date', { back: true })}
<div class="intro">${appt ? `You're booked for ${esc(dayLabel(appt.day))}, ${esc(appt.window)}. Choose a new date to move it.` : 'Choose a day when someone over 18 can be home. Installations take about 2 hours.'}</div>
${weeks.map((w) => `<div class="section">Week of ${esc(dayLabel(w).split(', ')[1] ?? '')}</div>${INSTALL_DAYS.filter((d) => d - (d % 7) === w).map(row).join('')}`).join('')}
<div class="intro">No dates that suit you? Call us on ${esc(HELP_PHONE)}.</div>
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Choose a date', css: CSS, body, ctx });
}

function slotPage(st: UtilityState, ctx: AppContext, day: number): AppResponse {
  const appt = st.appointment && !st.appointment.cancelled ? st.appointment : undefined;
  const opt = (w: string, time: string): string => {
    const free = windowOpen(day, w);
    return `<button class="ropt" role="radio" aria-checked="false" data-v="${esc(w)}"${free ? '' : ' aria-disabled="true"'} onclick="pick(this)"><span class="rad"></span><div class="info"><div class="n">${esc(w)}</div><div class="s">${esc(time)}</div></div>${free ? '' : '<span class="r">Full</span>'}</button>`;
  };
  const body = `${appbar(dayLabel(day), { back: true, menu: false })}
<div class="intro">Smart meter installation at ${esc(ADDRESS.split(',')[0] ?? '')}</div>
<div class="field" id="f-window"><label>Choose a time</label><div class="ropts" role="radiogroup">${WINDOWS.filter(([w]) => windowsOf(day).includes(w))
    .map(([w, time]) => opt(w, time))
    .join('')}</div><div class="ferr" id="e-window"></div></div>
<div class="field" id="f-notes"><label for="notes">Access notes (optional)</label><textarea id="notes" maxlength="${NOTES_MAX + 20}" placeholder="e.g. Meters are in the garage"></textarea><div class="ferr" id="e-notes"></div></div>
<div class="error" id="err"></div>
<button class="primary" id="book" onclick="go()">Book installation</button>
<div class="spacer"></div>
<div id="bookdlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Book this installation?"><h2>Book this installation?</h2><p id="book-text"></p>
${appt ? `<p>This replaces your booking on ${esc(dayLabel(appt.day))}, ${esc(appt.window)}.</p>` : ''}<p>An engineer needs to reach both meters for about 2 hours.</p>
<div class="acts"><button onclick="hide('bookdlg')">Go back</button><button id="book-ok" onclick="book()">Book</button></div></div></div>`;
  const script = `${snackJs}
const DAY=${day};const LABEL=${JSON.stringify(dayLabel(day))};const TIMES=${JSON.stringify(Object.fromEntries(WINDOWS))};let W='';let busy=false;
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function pick(el){if(el.getAttribute('aria-disabled')==='true'){snack('That time is fully booked');return}W=el.dataset.v;clr('window');for(const o of document.querySelectorAll('.ropt'))o.setAttribute('aria-checked',String(o===el))}
function go(){clr('window');clr('notes');document.getElementById('err').textContent='';if(busy)return;busy=true;api('book',{day:DAY,window:W,notes:document.getElementById('notes').value,check:true}).then(x=>{busy=false;
 if(!x.ok){for(const [k,m] of Object.entries(x.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}if(x.error)document.getElementById('err').textContent=x.error;return}
 document.getElementById('book-text').textContent=LABEL+', '+W+' ('+TIMES[W]+').';show('bookdlg')})}
function book(){if(busy)return;busy=true;api('book',{day:DAY,window:W,notes:document.getElementById('notes').value}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/smart-meter?t=booked');return}
 hide('bookdlg');document.getElementById('err').textContent=x.error||'Could not book'})}`;
  return renderPage({ title: dayLabel(day), css: CSS, body, ctx, script });
}

function usagePage(st: UtilityState, ctx: AppContext, fuel: string): AppResponse {
  const m = meterOf(st, fuel) ?? st.meters[0]!;
  const h = m.history;
  const months = h.slice(1).map((r, i) => ({ day: r.day, use: r.value - (h[i]?.value ?? r.value) }));
  const max = Math.max(1, ...months.map((x) => x.use));
  const body = `${appbar('Your usage', { back: true })}
<div class="seg">${st.meters.map((x) => `<a class="${x.id === m.id ? 'on' : ''}" href="${ctx.base}/usage?fuel=${x.id}">${esc(x.name)}</a>`).join('')}</div>
<div class="section">${esc(m.name)} use between readings (${esc(m.unit)})</div>
<div class="bars">${months.map((x) => `<div><span>${x.use}</span><i style="height:${Math.round((x.use / max) * 120)}px"></i><span class="m">${esc(shortDay(x.day).split(', ')[1] ?? '')}</span></div>`).join('')}</div>
<div class="intro">Compared with last year, you're using about the same. A smart meter would show your use by the day.</div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Your usage', css: CSS, body, ctx });
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

function handleApi(st: UtilityState, action: string, b: Record<string, unknown>): AppResponse {
  const check = b.check === true;
  switch (action) {
    case 'reading': {
      const m = meterOf(st, str(b.meter));
      if (!m) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const text = str(b.value);
      const last = currentValue(st, m);
      const error = readingError(m, text, last);
      if (error) return json({ ok: false, error });
      const value = Number(text.trim().replace(/\s+/g, ''));
      if (check)
        return json({ ok: true, padded: pad(m, value), high: readingHigh(m, value, last), use: `That's ${value - last} ${m.unit} since your last reading.` });
      st.seq += 1;
      st.readings.push({ id: 301 + st.readings.length, meterId: m.id, value, seq: st.seq });
      return json({ ok: true });
    }
    case 'pay': {
      const errors: Record<string, string> = {};
      const text = str(b.amount);
      const pence = parseMoney(text);
      if (!text.trim()) errors.amount = 'Enter an amount';
      else if (Number.isNaN(pence)) errors.amount = 'Enter an amount in pounds and pence, like 25.50';
      else if (pence < PAY_MIN) errors.amount = `The smallest payment is ${money(PAY_MIN)}`;
      else if (pence > PAY_MAX) errors.amount = `The largest card payment is ${money(PAY_MAX)}`;
      const c = cardOf(st, str(b.card));
      if (!c) errors.card = 'Choose a card';
      else if (c.expired) errors.card = `${cardLabel(c)} has expired. Choose another card.`;
      if (Object.keys(errors).length || !c) return json({ ok: false, errors });
      if (check) return json({ ok: true, amount: money(pence), card: cardLabel(c) });
      st.seq += 1;
      const id = 101 + st.payments.filter((p) => !p.seeded).length;
      st.payments.push({ id, pence, cardId: c.id, day: 0, ref: `NVP-${73400 + st.seed * 7 + id}`, seeded: false, seq: st.seq });
      st.balance -= pence;
      return json({ ok: true, id });
    }
    case 'dd': {
      if (b.day !== undefined) {
        const d = num(b.day);
        if (!DD_DAYS.includes(d)) return json({ ok: false, error: 'Choose a day between the 1st and the 28th' });
        if (d === st.dd.day) return json({ ok: false, error: 'Choose a new payment date first' });
        st.seq += 1;
        st.dd.day = d;
        st.dd.dayChanges += 1;
        return json({ ok: true });
      }
      const pence = parseMoney(str(b.amount));
      if (Number.isNaN(pence)) return json({ ok: false, error: 'Enter an amount, like 96.00' });
      if (pence < DD_MIN || pence > DD_MAX) return json({ ok: false, error: `Enter an amount between ${money(DD_MIN)} and ${money(DD_MAX)}` });
      if (pence !== st.dd.pence) {
        st.seq += 1;
        st.dd.pence = pence;
        st.dd.amountChanges += 1;
      }
      return json({ ok: true, amount: money(pence) });
    }
    case 'book': {
      const day = num(b.day);
      const w = str(b.window);
      const notes = cleanText(str(b.notes));
      const errors: Record<string, string> = {};
      if (!INSTALL_DAYS.includes(day)) return json({ ok: false, error: 'Choose a date' });
      if (!w) errors.window = 'Choose a time';
      else if (!windowsOf(day).includes(w)) errors.window = 'Choose a time';
      else if (!windowOpen(day, w)) errors.window = 'That time is fully booked. Choose another.';
      if (notes.length > NOTES_MAX) errors.notes = `Use ${NOTES_MAX} characters or fewer`;
      if (Object.keys(errors).length) return json({ ok: false, errors });
      if (check) return json({ ok: true });
      st.seq += 1;
      const bookings = (st.appointment?.bookings ?? 0) + 1;
      st.appointment = { day, window: w, notes, cancelled: false, bookings, seq: st.seq };
      return json({ ok: true });
    }
    case 'cancel_install': {
      if (!st.appointment || st.appointment.cancelled) return json({ ok: false, error: 'Nothing to cancel' }, 409);
      st.seq += 1;
      st.appointment.cancelled = true;
      st.appointment.seq = st.seq;
      return json({ ok: true });
    }
    case 'pref': {
      const p = prefOf(st, str(b.id));
      if (!p) return json({ ok: false, error: 'Unknown setting' }, 404);
      st.seq += 1;
      p.on = !p.on;
      return json({ ok: true, on: p.on });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleUtility(st: UtilityState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('t') ?? '';
  if (parts.length > 3) return notFound(CSS);
  if (head === undefined) return homePage(st, ctx);
  if (head === 'readings' && arg === undefined) return readingsPage(st, ctx, t, req.query.get('m') ?? '');
  if (head === 'readings' && arg) {
    const m = meterOf(st, arg);
    if (!m) return notFound(CSS);
    if (sub === undefined) return readingForm(st, ctx, m);
    if (sub === 'history') return historyPage(st, ctx, m);
    return notFound(CSS);
  }
  if (sub !== undefined && head !== 'smart-meter') return notFound(CSS);
  if (head === 'billing' && arg === undefined) return billingPage(st, ctx);
  if (head === 'pay' && arg === undefined) return payPage(st, ctx);
  if (head === 'payments' && arg) {
    const p = st.payments.find((x) => !x.seeded && String(x.id) === arg);
    return p ? paymentDone(st, ctx, p) : notFound(CSS);
  }
  if (head === 'direct-debit' && arg === undefined) return ddPage(st, ctx, t);
  if (head === 'account' && arg === undefined) return accountPage(st, ctx);
  if (head === 'usage' && arg === undefined) return usagePage(st, ctx, req.query.get('fuel') ?? '');
  if (head === 'smart-meter') {
    if (arg === undefined) return smartPage(st, ctx, t);
    if (arg === 'dates' && sub === undefined) return datesPage(st, ctx);
    if (arg === 'dates' && sub !== undefined) {
      const day = Number(sub);
      if (!INSTALL_DAYS.includes(day)) return notFound(CSS);
      return openWindows(day).length ? slotPage(st, ctx, day) : { status: 303, redirect: `${ctx.base}/smart-meter/dates` };
    }
  }
  return notFound(CSS);
}
