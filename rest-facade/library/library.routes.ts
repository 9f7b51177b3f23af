import type { Route } from '../../platform/http/route.js';
import type { LibraryServices } from '../../subgraphs/library/library-services.js';
import {
  variableSetBody,
  variableSetDetailView,
  variableSetPage,
  variableSetUpdateBody,
  variableSetView,
} from '../../subgraphs/library/sets/variable-set.schemas.js';
import {
  tagBody,
  tagGroupBody,
  tagGroupPage,
  tagGroupUpdateBody,
  tagGroupView,
  tagPage,
  tagUpdateBody,
  tagView,
} from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import {
  variableBody,
  variableListQuery,
  variablePage,
  variableUpdateBody,
  variableView,
} from '../../subgraphs/library/variables/variable.schemas.js';
import { certificateRoutes } from './certificate.routes.js';
import { crudRoutes } from './crud-routes.js';
import { importRoutes } from './import.routes.js';
import { exportRoutes } from './export.routes.js';
import { resolutionRoutes } from './resolution.routes.js';

const SET_SCOPE =
  "A group may restrict the Variable* permissions to chosen library sets: a set outside the caller's scope is 403 (one of another organization 404).";
const READ_COST =
  'Costs CreditCosts:VariableGetCost (429 with a plain-text body when the organization cannot afford it). Sensitive values are empty beside their hint and hash without VariableReadSecrets.';

/** Every REST path of the library's tables of spec 4.1: tag groups, tags, library sets, variables, values and certificates. */
export function libraryRoutes(services: LibraryServices): Route[] {
  return [
    ...resolutionRoutes(services.resolution),
    ...importRoutes(services.imports),
    ...exportRoutes(services.exports),
    ...crudRoutes(
      {
        path: '/taggroups',
        tag: 'Tag groups',
        noun: 'tag group',
        operationNoun: 'TagGroup',
        permissions: {
          list: 'TagGroupList',
          read: 'TagGroupRead',
          create: 'TagGroupCreate',
          update: 'TagGroupUpdate',
          delete: 'TagGroupDelete',
        },
        body: tagGroupBody,
        updateBody: tagGroupUpdateBody,
        page: tagGroupPage,
        view: tagGroupView,
        versioned: true,
      },
      services.tagGroups,
    ),
    ...crudRoutes(
      {
        path: '/tags',
        tag: 'Tags',
        noun: 'tag',
        operationNoun: 'Tag',
        permissions: {
          list: 'TagList',
          read: 'TagRead',
          create: 'TagCreate',
          update: 'TagUpdate',
          delete: 'TagDelete',
        },
        body: tagBody,
        updateBody: tagUpdateBody,
        page: tagPage,
        view: tagView,
        versioned: false,
      },
      services.tags,
    ),
    ...crudRoutes(
      {
        path: '/variablesets',
        tag: 'Library sets',
        noun: 'library set',
        operationNoun: 'VariableSet',
        permissions: {
          list: 'VariableList',
          read: 'VariableRead',
          create: 'VariableCreate (unrestricted)',
          update: 'VariableUpdate',
          delete: 'VariableDelete',
        },
        body: variableSetBody,
        updateBody: variableSetUpdateBody,
        page: variableSetPage,
        view: variableSetView,
        detail: variableSetDetailView,
        versioned: true,
        readCost: READ_COST,
        scopeNote: SET_SCOPE,
      },
      services.sets,
    ),
    ...crudRoutes(
      {
        path: '/variables',
        tag: 'Variables',
        noun: 'variable',
        operationNoun: 'Variable',
        permissions: {
          list: 'VariableList',
          read: 'VariableRead',
          create: 'VariableCreate',
          update: 'VariableUpdate',
          delete: 'VariableDelete',
        },
        query: variableListQuery,
        body: variableBody,
        updateBody: variableUpdateBody,
        page: variablePage,
        view: variableView,
        versioned: true,
        readCost: READ_COST,
        scopeNote: SET_SCOPE,
      },
      services.variables,
    ),
    ...certificateRoutes(services.certificates),
  ];
}
