import { Composer } from 'telegraf';
import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { type BotContext, UserInputError } from '../context.js';
import { CallbackSet, type Feature } from '../feature.js';
import { linkKeyboard } from '../keyboards/list.js';
import { createAwaitInputScene, type InputHandler } from '../scenes/await-input.js';
import type { OrderEngine } from '../scenes/order/engine.js';
import { renderLink } from '../views/billing.js';
import { commandWords } from './arguments.js';
import { resolveDomainOrder } from './dns-domain.js';
import { createDnsNameServers } from './dns-name-servers.js';
import { createDnsRecords, type ShowRecords } from './dns-records.js';
import { createDnsZoneFile } from './dns-zone-file.js';

export { type DomainRef, resolveDomainOrder } from './dns-domain.js';
export { createDnsRecordList, type ShowRecords } from './dns-records.js';

/**
 * /dns, /ns and /cert: the `/dns` words routed to records, zone files and name servers, each
 * part in its own module; the domain is resolved once per update. The records list comes in
 * built (the engine's guided add ends on it too); the zone file and name server answers are
 * taken by this feature's await-input scene.
 */
export function createDnsFeature(deps: {
  engine: OrderEngine;
  showRecords: ShowRecords;
  downloadFile: (ctx: BotContext, fileId: string) => Promise<string>;
}): Feature {
  const { engine, showRecords, downloadFile } = deps;
  const callbacks = new CallbackSet();
  const records = createDnsRecords({ router: callbacks, engine, showRecords });
  const zoneFile = createDnsZoneFile({ router: callbacks, showRecords });
  const nameServers = createDnsNameServers({ router: callbacks });
  const composer = new Composer<BotContext>();

  composer.command('dns', async (ctx) => {
    const words = commandWords(ctx.payload);
    const ref = await resolveDomainOrder(ctx, words[0]);
    const action = words[1]?.toLowerCase();
    if (action === undefined) return records.showRecords(ctx, ref.orderId);
    if (action === 'add') {
      // The rest of the line as typed (TXT text keeps its spaces).
      return records.addFromLine(ctx, ref, ctx.payload.trim().replace(/^\S+\s+add\s*/i, ''));
    }
    if (action === 'del' || action === 'delete') {
      const id = words[2];
      if (!id || !/^\d{1,10}$/.test(id))
        throw new UserInputError('dns:badRecordId', { usageKey: 'dns:usage' });
      return records.askDelete(ctx, ref.orderId, Number(id));
    }
    if (action === 'export') return zoneFile.exportRecords(ctx, ref);
    if (action === 'import') return zoneFile.askImport(ctx, ref.orderId);
    throw new UserInputError('dns:badAction', { usageKey: 'dns:usage' });
  });

  composer.command('cert', async (ctx) => {
    const ref = await resolveDomainOrder(ctx, commandWords(ctx.payload)[0]);
    const url = await (await ctx.partnerApi()).getDomainCertificateUrl(ref.orderId);
    const domain = escapeHtml(toUnicodeDomain(ref.domain));
    await ctx.reply(renderLink(ctx.t, 'dns:certificateLink', { domain }, url), {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...linkKeyboard(ctx.t('common:openLink'), url),
    });
  });

  composer.use(nameServers.composer);

  const inputHandlers: Record<string, InputHandler> = {
    ...zoneFile.inputHandlers,
    ...nameServers.inputHandlers,
  };
  return {
    name: 'dns',
    composer,
    callbacks: callbacks.registrations,
    scenes: [createAwaitInputScene(inputHandlers, downloadFile)],
  };
}
