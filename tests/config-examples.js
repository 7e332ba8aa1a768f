// The six real examples of docs/config-in.md (§4.5, §5.5, §6.4, §7.3, §8.4, §9.5), one per format
// retrysim --from reads, each in the layout the tests check its lines in. Shared by the node
// tests of the readers (tests/node/config-*.test.js), the config file's parity test
// (tests/node/config-file.test.js) and the page's "Paste your config" tests
// (tests/browser/config-paste.test.js), so that all of them read the very same texts.
'use strict';

module.exports = {
  // grpc-java's retrying example (examples/.../retrying_service_config.json), §4.5.
  grpc: { format: 'grpc', rule: 'grpc-service-config', text: `{
  "methodConfig": [
    {
      "name": [ { "service": "helloworld.Greeter", "method": "SayHello" } ],
      "retryPolicy": {
        "maxAttempts": 5,
        "initialBackoff": "0.5s",
        "maxBackoff": "30s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": [ "UNAVAILABLE" ]
      }
    }
  ]
}
` },
  // Envoy's retry-previous-hosts example (a bootstrap), §5.5.
  envoy: { format: 'envoy', rule: 'envoy-bootstrap', text: `static_resources:
  listeners:
  - name: listener_0
    address: {socket_address: {address: 0.0.0.0, port_value: 10000}}
    filter_chains:
    - filters:
      - name: envoy.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: ingress_http
          route_config:
            name: local_route
            virtual_hosts:
            - name: local_service
              domains: ["*"]
              routes:
              - match: {prefix: "/"}
                route:
                  cluster: cluster_0
                  retry_policy:
                    retry_host_predicate:
                    - name: envoy.retry_host_predicates.previous_hosts
                    host_selection_retry_max_attempts: 3
  clusters:
  - name: cluster_0
    type: LOGICAL_DNS
` },
  // Istio's HTTPRetry reference example, §6.4.
  istio: { format: 'istio', rule: 'istio-virtual-service', text: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ratings-route
spec:
  hosts:
  - ratings.prod.svc.cluster.local
  http:
  - route:
    - destination:
        host: ratings.prod.svc.cluster.local
        subset: v1
    retries:
      attempts: 3
      perTryTimeout: 2s
      retryOn: gateway-error,connect-failure,refused-stream
` },
  // Linkerd's books app ServiceProfile (a retryable route), §7.3.
  linkerd: { format: 'linkerd', rule: 'linkerd-service-profile', text: `apiVersion: linkerd.io/v1alpha2
kind: ServiceProfile
metadata:
  name: authors.booksapp.svc.cluster.local
  namespace: booksapp
spec:
  routes:
  - condition:
      method: HEAD
      pathRegex: /authors/[^/]*\\.json
    name: HEAD /authors/{id}.json
    isRetryable: true
` },
  // The Boto3 guide's shared config file, §8.4 (its [myConfigProfile] is not a profile).
  aws: { format: 'aws', rule: 'aws-shared-config', text: `[myConfigProfile]
region = us-east-1
max_attempts = 10
retry_mode = standard
` },
  // §9.5's appsettings.json (constructed: no real example was found).
  dotnet: { format: 'dotnet', rule: 'dotnet-appsettings', text: `{
  "Logging": { "LogLevel": { "Default": "Information" } },
  "PaymentsClient": {
    "Retry": { "MaxRetryAttempts": 5, "BackoffType": "Constant", "UseJitter": false,
               "Delay": "00:00:00.5" },
    "AttemptTimeout": { "Timeout": "00:00:02" },
    "TotalRequestTimeout": { "Timeout": "00:00:10" }
  }
}
` },
};
