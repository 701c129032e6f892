// Feature flags per organization. Other modules ask require(actor, flag) before an operation the flag
// gates: a flag that is off answers 403 and nothing is done.
import { now } from '../../clock.js';
import { FeatureDisabled } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { FEATURE_FLAGS, FLAG_NAMES, type FeatureFlag } from './feature-flags.js';
import { flagPolicy } from './flag.policy.js';
import type { FlagSettingRow } from './flags.repo.js';

export interface FlagView {
  flag: FeatureFlag;
  enabled: boolean;
  default_enabled: boolean;
  summary: string;
  gates: string;
  modified_on: string | null;
  modified_by: string | null;
}

function presentFlag(flag: FeatureFlag, setting: FlagSettingRow | undefined): FlagView {
  const definition = FEATURE_FLAGS[flag];
  return {
    flag,
    enabled: setting ? setting.enabled === 1 : definition.default,
    default_enabled: definition.default,
    summary: definition.summary,
    gates: definition.gates,
    modified_on: setting?.modified_on ?? null,
    modified_by: setting?.modified_by_email ?? null,
  };
}

export class FeatureFlagsService {
  constructor(private readonly store: UnitOfWork) {}

  async list(actor: Actor): Promise<FlagView[]> {
    const settings = new Map((await this.store.repos.flags.list(actor.organizationId)).map((row) => [row.flag, row]));
    return FLAG_NAMES.map((flag) => presentFlag(flag, settings.get(flag)));
  }

  async get(actor: Actor, flag: FeatureFlag): Promise<FlagView> {
    return presentFlag(flag, await this.store.repos.flags.find(actor.organizationId, flag));
  }

  async set(actor: Actor, flag: FeatureFlag, enabled: boolean): Promise<FlagView> {
    authorize(flagPolicy.mayChange(actor), 'Only owners and admins may turn feature flags on or off');
    await this.store.repos.flags.set(actor.organizationId, flag, enabled, now(), actor.userId);
    return this.get(actor, flag);
  }

  async isEnabled(organizationId: number, flag: FeatureFlag): Promise<boolean> {
    const setting = await this.store.repos.flags.find(organizationId, flag);
    return setting ? setting.enabled === 1 : FEATURE_FLAGS[flag].default;
  }

  /** Throws 403 when the flag is off for the actor's organization. */
  async require(actor: Pick<Actor, 'organizationId'>, flag: FeatureFlag): Promise<void> {
    if (!(await this.isEnabled(actor.organizationId, flag))) {
      throw new FeatureDisabled(`The feature "${flag}" (${FEATURE_FLAGS[flag].summary}) is turned off for this organization`);
    }
  }
}
