import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str } from '../kit.js';
import { esc } from '../shared.js';
import { verificationCode } from '../mail/catalog.js';
import { PICKERS, SECTIONS, STEPPERS, TOGGLES, type PickerKey, type SectionId, type StepperKey, type ToggleKey } from './catalog.js';
import type { SettingsState } from './state.js';

const ACCENT = '#0b5cad';
const CSS =
  kitCss(ACCENT, '#d3e4ff') +
  `
.crumb{padding:10px 16px;font-size:15px;color:#5f6670;background:#fff;border-bottom:1px solid #eceef1}
.ic{width:40px;height:40px;border-radius:20px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:19px;font-weight:bold}
.banner{margin:12px;padding:16px;border-radius:14px;background:#fff4e6;border:1px solid #ffc078;font-size:16px;color:#5c3300;display:block}
.banner b{display:block;font-size:18px;margin-bottom:4px;color:#3b2000}
.codebox{margin:12px;padding:18px;background:#fff;border-radius:14px}
.codebox input{width:100%;height:60px;border:2px solid #d0d4da;border-radius:12px;text-align:center;font-size:28px;letter-spacing:8px;font-family:'Liberation Mono','DejaVu Sans Mono',monospace;outline:none}
.codebox input:focus{border-color:${ACCENT}}
.verified{text-align:center;padding:36px 20px}
.verified .tick{width:88px;height:88px;border-radius:44px;background:#2f9e44;color:#fff;font-size:52px;line-height:88px;margin:0 auto 14px}
.verified h2{font-size:25px;margin:0 0 6px}
.link{display:block;margin:8px auto;padding:10px 16px;font-size:17px;font-weight:bold;color:${ACCENT}}
`;
const DARK_CSS = `<style>body{background:#121417;color:#e9ecef}.row,.crumb,.field,.codebox,.sheet{background:#1c1f24!important;border-color:#2c3036!important}
.row .t,.verified h2{color:#f1f3f5!important}.link,.section,.row .v{color:#74c0fc!important}.row .s,.muted,.crumb{color:#adb5bd!important}.codebox input{background:#121417;color:#fff}</style>`;

function shell(state: SettingsState, ctx: AppContext, title: string, body: string, script = '', root = false): AppResponse {
  return renderPage({
    title,
    css: CSS,
    body: (state.toggles.dark_mode ? DARK_CSS : '') + body + overflowMenu([['Help & feedback', 'js:__tfMenu()'], ['Search settings', 'js:__tfMenu()']]),
    ctx,
    script: SCRIPT + script,
    root,
  });
}

const SCRIPT = `
function tog(el){api('toggle',{key:el.dataset.key}).then(s=>{el.setAttribute('aria-checked',String(s.on));el.querySelector('.switch').classList.toggle('on',s.on);
 const sub=el.querySelector('.s');if(sub&&el.dataset.on)sub.textContent=s.on?el.dataset.on:el.dataset.off;if(el.dataset.key==='dark_mode')location.reload()})}
function stepv(key,d){api('step',{key,delta:d}).then(s=>{document.getElementById('v-'+key).textContent=s.label})}
function pick(key){return v=>api('pick',{key,value:v}).then(()=>location.reload())}
`;

function toggleRow(state: SettingsState, key: ToggleKey, sub?: readonly [string, string]): string {
  const on = state.toggles[key];
  const subAttrs = sub ? ` data-on="${esc(sub[0])}" data-off="${esc(sub[1])}"` : '';
  return `<button class="row" role="switch" data-long aria-checked="${on}" aria-label="${esc(TOGGLES[key])}" data-key="${key}"${subAttrs} onclick="tog(this)"><div class="info"><div class="t">${esc(TOGGLES[key])}</div>${sub ? `<div class="s">${esc(on ? sub[0] : sub[1])}</div>` : ''}</div><span class="switch${on ? ' on' : ''}"></span></button>`;
}

const stepLabel = (key: StepperKey, v: number): string => `${v}${STEPPERS[key].unit}`;
function stepperRow(state: SettingsState, key: StepperKey): string {
  const s = STEPPERS[key];
  const v = state.steppers[key];
  return `<div class="row"><div class="info"><div class="t">${esc(s.label)}</div><div class="s">${s.min}${s.unit} to ${s.max}${s.unit}</div></div>
<div class="stepper"><button aria-label="Decrease ${esc(s.label)}" onclick="stepv('${key}',-1)">&minus;</button><span class="val" id="v-${key}">${stepLabel(key, v)}</span><button aria-label="Increase ${esc(s.label)}" onclick="stepv('${key}',1)">+</button></div></div>`;
}

function pickerRow(state: SettingsState, key: PickerKey): string {
  const p = PICKERS[key];
  return `<button class="row" onclick="show('pk-${key}')"><div class="info"><div class="t">${esc(p.label)}</div><div class="s">${esc(state.pickers[key])}</div></div></button>
${pickerDialog(`pk-${key}`, p.label, p.options, state.pickers[key], `pick('${key}')`)}`;
}

/** A row that looks tappable but does nothing (a realistic dead end). */
const deadRow = (title: string, sub: string): string =>
  `<button class="row"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div></button>`;
const infoRow = (title: string, value: string): string => `<div class="row"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(value)}</div></div></div>`;

function homePage(state: SettingsState, ctx: AppContext): AppResponse {
  const rows = SECTIONS.map(
    (s) => `<a class="row" href="${ctx.base}/${s.id}"><div class="ic" style="background:${s.color}">${s.glyph}</div><div class="info"><div class="t">${esc(s.label)}</div><div class="s">${esc(s.sub)}</div></div></a>`,
  ).join('');
  const banner = state.verify.verified
    ? ''
    : `<a class="banner" href="${ctx.base}/verify"><b>Verify your account</b>Enter the code we emailed you to finish setting up.</a>`;
  const body = `${appbar('Settings')}${banner}${rows}
<div class="row"><div class="ic" style="background:#868e96">?</div><div class="info"><div class="t">Tips &amp; support</div><div class="s">Help articles, phone and chat</div></div></div><div class="spacer"></div>`;
  return shell(state, ctx, 'Settings', body, '', true);
}

function sectionPage(state: SettingsState, ctx: AppContext, id: SectionId): AppResponse {
  const sec = SECTIONS.find((s) => s.id === id);
  if (!sec) return notFound(CSS);
  let rows = '';
  switch (id) {
    case 'network':
      rows =
        toggleRow(state, 'wifi', ['Connected to Maple-5G', 'Off']) +
        toggleRow(state, 'wifi_calling', ['Calls use Wi-Fi when available', 'Off']) +
        toggleRow(state, 'mobile_data') +
        toggleRow(state, 'airplane') +
        deadRow('Hotspot & tethering', 'Off') +
        deadRow('Data Saver', 'Off') +
        deadRow('VPN', 'None');
      break;
    case 'devices':
      rows =
        toggleRow(state, 'bluetooth', ['On, visible to nearby devices', 'Off']) +
        toggleRow(state, 'bluetooth_scanning', ['Apps can scan for nearby devices', 'Off']) +
        deadRow('Pair new device', 'Bluetooth will turn on to pair') +
        infoRow('Previously connected', 'Pixel Buds, Car Audio');
      break;
    case 'display':
      rows =
        toggleRow(state, 'dark_mode') +
        stepperRow(state, 'brightness') +
        toggleRow(state, 'adaptive_brightness') +
        toggleRow(state, 'night_light') +
        deadRow('Lock screen', 'Show all notification content') +
        deadRow('Wallpaper & style', 'Colors, themed icons') +
        pickerRow(state, 'font_size') +
        pickerRow(state, 'display_size') +
        pickerRow(state, 'colors') +
        toggleRow(state, 'auto_rotate') +
        toggleRow(state, 'battery_percent') +
        toggleRow(state, 'tap_to_wake') +
        toggleRow(state, 'screen_attention') +
        deadRow('Screen saver', 'Clock') +
        deadRow('Smooth display', 'Up to 120 Hz') +
        `<div class="section">Other display controls</div>` +
        pickerRow(state, 'screen_timeout');
      break;
    case 'sound':
      rows =
        stepperRow(state, 'media_volume') +
        stepperRow(state, 'ring_volume') +
        toggleRow(state, 'dnd', ['On: only priority interruptions', 'Off']) +
        toggleRow(state, 'vibrate_calls') +
        pickerRow(state, 'ringtone') +
        toggleRow(state, 'touch_sounds');
      break;
    case 'security':
      rows =
        pickerRow(state, 'screen_lock') +
        toggleRow(state, 'find_device') +
        `<a class="row" href="${ctx.base}/verify"><div class="info"><div class="t">Verify account</div><div class="s">${state.verify.verified ? 'Account verified' : 'Not verified'}</div></div></a>` +
        toggleRow(state, 'app_pinning') +
        deadRow('Security update', 'June 5');
      break;
    case 'about':
      rows =
        infoRow('Device name', 'Pixel 8') +
        infoRow('Phone number', '+1 555 0142') +
        infoRow('Model', 'GKWS6') +
        infoRow('Android version', '14') +
        infoRow('IP address', '192.168.1.23') +
        deadRow('Build number', 'AP2A.240605.024');
      break;
  }
  const body = `${appbar(sec.label, { back: true })}<div class="crumb">Settings &rsaquo; ${esc(sec.label)}</div>${rows}<div class="spacer"></div>`;
  return shell(state, ctx, sec.label, body);
}

function verifyPage(state: SettingsState, ctx: AppContext): AppResponse {
  const body = state.verify.verified
    ? `${appbar('Verify account', { back: true })}<div class="verified"><div class="tick">&#10003;</div><h2>Account verified</h2><div class="muted">Your account is set up on this phone.</div></div>
<a class="primary" href="${ctx.base}/">Done</a>`
    : `${appbar('Verify account', { back: true })}
<div class="codebox"><div style="font-size:18px;font-weight:bold;margin-bottom:6px">Enter verification code</div>
<div class="muted" style="margin-bottom:14px">We sent a 6-digit code to your email. Open the Mail app and look for the message from Security Team.</div>
<input id="code" type="text" inputmode="numeric" maxlength="6" placeholder="000000" autocomplete="one-time-code" aria-label="Verification code"></div>
<div class="error" id="err" role="alert"></div>
<button class="primary" id="verify" onclick="verify()">Verify</button>
<button class="link" onclick="void 0">Resend code</button>`;
  const script = `function verify(){const c=document.getElementById('code');api('verify',{code:c.value}).then(r=>{if(r.ok)location.reload();else{document.getElementById('err').textContent=r.error;c.blur()}})}
const ci=document.getElementById('code');if(ci)ci.addEventListener('keydown',e=>{if(e.key==='Enter')verify()});`;
  return shell(state, ctx, 'Verify account', body, script);
}

function handleApi(state: SettingsState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  const key = str(b.key);
  switch (action) {
    case 'toggle': {
      if (!(key in TOGGLES)) return json({ error: 'bad key' }, 400);
      const k = key as ToggleKey;
      state.toggles[k] = !state.toggles[k];
      state.changes.push({ key: k, value: state.toggles[k] ? 'On' : 'Off', seq: state.seq });
      return json({ on: state.toggles[k] });
    }
    case 'step': {
      if (!(key in STEPPERS)) return json({ error: 'bad key' }, 400);
      const k = key as StepperKey;
      const s = STEPPERS[k];
      const delta = typeof b.delta === 'number' ? Math.sign(b.delta) : 0;
      state.steppers[k] = Math.max(s.min, Math.min(s.max, state.steppers[k] + delta * s.step));
      state.changes.push({ key: k, value: stepLabel(k, state.steppers[k]), seq: state.seq });
      return json({ value: state.steppers[k], label: stepLabel(k, state.steppers[k]) });
    }
    case 'pick': {
      if (!(key in PICKERS)) return json({ error: 'bad key' }, 400);
      const k = key as PickerKey;
      const v = str(b.value);
      if (!(PICKERS[k].options as readonly string[]).includes(v)) return json({ error: 'bad value' }, 400);
      state.pickers[k] = v;
      state.changes.push({ key: k, value: v, seq: state.seq });
      return json({ ok: true });
    }
    case 'verify': {
      const code = str(b.code).trim();
      if (!/^\d{6}$/.test(code)) return json({ ok: false, error: 'Enter all 6 digits of the code' });
      const good = code === verificationCode(state.seed);
      state.verify.attempts.push({ code, ok: good, seq: state.seq });
      if (!good) return json({ ok: false, error: 'Incorrect code. Check the email and try again.' });
      state.verify.verified = true;
      state.verify.code = code;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleSettings(state: SettingsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head] = parts;
  if (head === undefined) return homePage(state, ctx);
  if (head === 'verify') return verifyPage(state, ctx);
  if (SECTIONS.some((s) => s.id === head)) return sectionPage(state, ctx, head as SectionId);
  return notFound(CSS);
}
