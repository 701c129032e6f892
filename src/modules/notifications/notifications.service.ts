// Notifications: created by events worth knowing (added to a team or project, a document that failed,
// an evaluation that finished), read by their user only. Other modules call notify() once the change
// it reports is committed.
import { now } from '../../clock.js';
import type { NotificationRow } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { NotificationView } from './notifications.schemas.js';

export type NotificationKind = 'team_added' | 'team_role_changed' | 'project_added' | 'document_failed' | 'evaluation_finished';

export interface NotificationMessage {
  kind: NotificationKind;
  title: string;
  body: string;
  /** Path of the API resource the notification is about, e.g. /api/v2/teams/3 */
  link?: string | undefined;
}

export function presentNotification(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    is_read: row.read_on !== null,
    created_on: row.created_on,
    read_on: row.read_on,
  };
}

export class NotificationsService {
  constructor(private readonly store: UnitOfWork) {}

  /**
   * Notifies users of an organization. Users not in that organization, or deactivated, are skipped,
   * so a caller cannot reach another organization's users whatever ids it passes.
   */
  async notify(organizationId: number, userIds: readonly number[], message: NotificationMessage): Promise<number> {
    if (userIds.length === 0) return 0;
    const recipients = await this.store.repos.users.activeIds(organizationId, [...new Set(userIds)]);
    const at = now();
    await this.store.repos.notifications.insertMany(
      recipients.map((userId) => ({
        organization_id: organizationId,
        user_id: userId,
        kind: message.kind,
        title: message.title,
        body: message.body,
        link: message.link ?? null,
        created_on: at,
      })),
    );
    return recipients.length;
  }

  /** A document failed processing for good: its uploader is told, with the reason and the step. */
  async documentFailed(
    document: { id: number; organization_id: number; corpus_id: number; created_by: number; source: string; step: string },
    reason: string,
  ): Promise<void> {
    await this.notify(document.organization_id, [document.created_by], {
      kind: 'document_failed',
      title: `The document ${document.source} could not be processed`,
      body: `Processing stopped at the step ${document.step}: ${reason}`,
      link: `/api/v2/corpora/${document.corpus_id}/documents/${document.id}`,
    });
  }

  async list(actor: Actor, unreadOnly: boolean, window: ListWindow): Promise<ListSlice<NotificationView>> {
    const { items, total } = await this.store.repos.notifications.list(actor.organizationId, actor.userId, unreadOnly, window);
    return { items: items.map(presentNotification), total };
  }

  async markRead(actor: Actor, notificationId: number): Promise<NotificationView> {
    const row = await this.store.repos.notifications.markRead(actor.organizationId, actor.userId, notificationId, now());
    if (!row) throw new NotFound('notification', notificationId);
    return presentNotification(row);
  }

  async markAllRead(actor: Actor): Promise<number> {
    return this.store.repos.notifications.markAllRead(actor.organizationId, actor.userId, now());
  }
}
