import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Certificate } from '../certificates/certificate.entity.js';

/**
 * An organization's data key, which its sensitive values are sealed under (decisions "Secrets at
 * rest"): kept only wrapped, by its primary certificate (RSA-OAEP with the certificate's public
 * key; `certificateId`) or, without one, by the master key. A new key on each change of the
 * primary, one generation more. The certificate that wraps it cannot be deleted before the key is
 * wrapped otherwise.
 */
export const DataKey = defineEntity({
  name: 'DataKey',
  tableName: 'data_key',
  properties: {
    organizationId: p.uuid().primary(),
    generation: p.integer(),
    wrappedKey: p.blob(),
    certificateId: p
      .manyToOne(Certificate)
      .mapToPk()
      .fieldName('certificate_id')
      .nullable()
      .deleteRule('restrict'),
  },
});
export type DataKey = InferEntity<typeof DataKey>;
