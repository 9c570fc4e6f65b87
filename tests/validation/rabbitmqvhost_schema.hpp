// A RabbitMQVhost openAPIV3Schema written from apis.md §1.1/§1.3 for these
// tests (deploy/crds/ holds the real CRD; the corpora test compiles that one).
#pragma once

namespace c5c3::sim::validation::testing {

inline const char* kRabbitMQVhostSchema = R"y(
type: object
x-kubernetes-validations:
  - rule: size(self.metadata.name) <= 63
    message: metadata.name must be at most 63 bytes; it is carried as a label value on the order's children
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    required: [controlPlaneRef]
    properties:
      controlPlaneRef:
        type: object
        required: [name]
        properties:
          name: {type: string, minLength: 1}
          namespace: {type: string, minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'}
        x-kubernetes-validations:
          - rule: self.name == oldSelf.name
            message: controlPlaneRef.name is immutable; delete and re-create the RabbitMQVhost to move it to another ControlPlane
          - rule: "(has(self.__namespace__) ? self.__namespace__ : '') == (has(oldSelf.__namespace__) ? oldSelf.__namespace__ : '')"
            message: controlPlaneRef.namespace is immutable; delete and re-create the RabbitMQVhost to move it to another ControlPlane
      passwordGeneration:
        type: integer
        format: int64
        default: 1
        minimum: 1
        x-kubernetes-validations:
          - rule: self >= oldSelf
            message: passwordGeneration may only increase
      rotation:
        type: object
        default: {}
        properties:
          interval:
            type: string
            default: 720h
            x-kubernetes-validations:
              - rule: duration(self) == duration('0s') || duration(self) >= duration('1m')
                message: rotation.interval is 0s or at least 1m
              - rule: duration(self) <= duration('87600h')
                message: rotation.interval is at most 87600h
          gracePeriod:
            type: string
            default: 24h
            x-kubernetes-validations:
              - rule: duration(self) >= duration('0s')
                message: rotation.gracePeriod is not negative
        x-kubernetes-validations:
          - rule: "!has(self.interval) || !has(self.gracePeriod) || duration(self.interval) == duration('0s') || duration(self.gracePeriod) < duration(self.interval)"
            message: rotation.gracePeriod must be shorter than rotation.interval
      deletionPolicy:
        type: string
        default: Retain
        enum: [Retain, Delete]
  status:
    type: object
    properties:
      observedGeneration: {type: integer, format: int64}
      conditions:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [type]
        items:
          type: object
          required: [type, status]
          properties:
            type: {type: string}
            status: {type: string, enum: ["True", "False", "Unknown"]}
            reason: {type: string}
            message: {type: string}
            lastTransitionTime: {type: string, format: date-time}
            observedGeneration: {type: integer, format: int64}
)y";

}  // namespace c5c3::sim::validation::testing
