import type { AppDag } from '../../../domain/dag.js';
import { calculatorApp } from './calculator.js';
import { fileManagerApp } from './file-manager.js';
import { spreadsheetApp } from './spreadsheet.js';
import { textEditorApp } from './text-editor.js';
import type { DesktopApp } from './types.js';

export type { DesktopApp, DesktopFamily, DesktopCheckContext } from './types.js';
export { checkDesktop } from './types.js';

/** The real Debian desktop applications the desktop environment runs (installed by scripts/setup.sh). */
export const DESKTOP_APPS: readonly DesktopApp[] = [textEditorApp, spreadsheetApp, fileManagerApp, calculatorApp];

/** Every desktop app's DAG (validated with `AppDag` when the app module loads). */
export function loadDesktopDags(): AppDag[] {
  return DESKTOP_APPS.map((a) => a.dag);
}

export function getDesktopApp(id: string): DesktopApp | undefined {
  return DESKTOP_APPS.find((a) => a.id === id);
}
