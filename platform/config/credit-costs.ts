import { statSync } from 'node:fs';
import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import { SettingsSource, readSettingsFile } from './settings-source.js';
import { integerSetting, unset } from './setting-values.js';

export interface CreditCosts {
  readonly variableGetCost: number;
  readonly variablePreviewCost: number;
}

/** Spec section 8. */
export const CREDIT_COST_DEFAULTS: CreditCosts = { variableGetCost: 1, variablePreviewCost: 10 };

/** A credit cost: a whole number of credits, 0 or more. */
export const creditCost = integerSetting().pipe(z.number().nonnegative());
const costsSchema = z.object({
  VariableGetCost: creditCost.default(CREDIT_COST_DEFAULTS.variableGetCost),
  VariablePreviewCost: creditCost.default(CREDIT_COST_DEFAULTS.variablePreviewCost),
});

/**
 * Credit costs are read on every request so an operator can change them without a restart
 * (spec section 8). The settings file is parsed again only when it changed on disk. A file
 * edited into something invalid keeps the last good costs and logs why, once per change.
 */
export class CreditCostReader {
  private lastGood: CreditCosts;
  private fileStamp = '';
  /** The environment of a running process does not change; only the file can. */
  private readonly file: string | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly logger: Logger,
    private readonly overrides: Record<string, unknown> = {},
  ) {
    this.file = env.SETTINGS_FILE;
    const initial = this.parse();
    if (!initial.success) throw new Error(`Invalid settings:\n  - ${initial.problem}`);
    this.lastGood = initial.costs;
  }

  current(): CreditCosts {
    const stamp = this.stamp();
    if (stamp === this.fileStamp) return this.lastGood;
    this.fileStamp = stamp;
    const parsed = this.parse();
    if (parsed.success) this.lastGood = parsed.costs;
    else
      this.logger.error(
        { problem: parsed.problem },
        'credit costs in the settings file are invalid; keeping the last good values',
      );
    return this.lastGood;
  }

  private stamp(): string {
    if (!this.file) return 'no-file';
    try {
      const stat = statSync(this.file);
      return `${stat.mtimeMs}:${stat.size}`;
    } catch {
      return 'missing';
    }
  }

  private parse(): { success: true; costs: CreditCosts } | { success: false; problem: string } {
    try {
      const source = SettingsSource.from({
        env: this.env,
        file: this.file ? readSettingsFile(this.file) : undefined,
        overrides: this.overrides,
      });
      const raw = {
        VariableGetCost: unset(source.get('CreditCosts:VariableGetCost')),
        VariablePreviewCost: unset(source.get('CreditCosts:VariablePreviewCost')),
      };
      const result = costsSchema.safeParse(raw);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        return { success: false, problem: `CreditCosts:${issue.path.join(':')}: ${issue.message}` };
      }
      return {
        success: true,
        costs: {
          variableGetCost: result.data.VariableGetCost,
          variablePreviewCost: result.data.VariablePreviewCost,
        },
      };
    } catch (error) {
      return { success: false, problem: (error as Error).message };
    }
  }
}
